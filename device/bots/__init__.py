"""Bots for the free seats: slap hands (a reaction-time model) and rule minds (decisions)."""
