"""Host side and firmware of the optional microcontroller bridge (for boxes with more stations
than the Pi's GPIO can wire). Not built yet: the box reads buttons through GPIO directly."""
