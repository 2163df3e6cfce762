"""Steel Driver."""
