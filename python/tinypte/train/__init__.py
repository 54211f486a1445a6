"""The training stage: a model file and a seed become trained weights and their metrics."""
