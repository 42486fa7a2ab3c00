"""What a game leaves behind: its append-only journal, replay and resume from it, the statistics."""
