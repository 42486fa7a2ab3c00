"""The box as a systemd service: readiness and watchdog notifications, the safe shutdown."""
