"""slapbox: everything that runs on the box (rules core, table, inputs, screen, service)."""

__version__ = "0.1.0"
