"""The table: orders presses (arbiter), applies them to the rules, keeps time (runner), seats players."""
