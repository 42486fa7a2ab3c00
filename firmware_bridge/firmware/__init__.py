"""The bridge firmware's files, copied to the Pico by `slapbox bridge flash` (never imported on
the host except by the tests: `bridge_core` and `bridge_pio` run on CPython too)."""
