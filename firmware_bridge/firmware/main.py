# mypy: ignore-errors
# (MicroPython on the RP2040 only: machine, rp2, uctypes, viper's ptr32 have no stubs here)
# The slapbox bridge firmware's entry point: MicroPython runs main.py after every reset.
# Hold MENU (GPIO 16 to ground) while plugging in to stay at the REPL instead.
import bridge_rp2

bridge_rp2.main()
