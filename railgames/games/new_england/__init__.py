"""New England Railways."""
