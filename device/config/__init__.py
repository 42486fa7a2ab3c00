"""The box's configuration: one TOML file, one schema engine; each part declares its own section."""
