"""Pictures of a model (fit and arena) and the matplotlib set-up they share with the plotter."""
