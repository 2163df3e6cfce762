"""Railways of the World."""
