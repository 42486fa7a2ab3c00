# The slapbox bridge firmware's entry point: MicroPython runs main.py after every reset.
# Hold MENU (GPIO 16 to ground) while plugging in to stay at the REPL instead.
import bridge_rp2

bridge_rp2.main()
