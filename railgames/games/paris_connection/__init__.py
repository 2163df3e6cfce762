"""Paris Connection."""
