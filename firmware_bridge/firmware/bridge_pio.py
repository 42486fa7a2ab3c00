# mypy: ignore-errors
# ruff: noqa: F821  (the assembler's names are injected by asm_pio)
# (MicroPython on the RP2040 only: machine, rp2, uctypes, viper's ptr32 have no stubs here)
"""The PIO program that samples every button pin in one instant (RP2040; MicroPython's ``rp2``).

One loop is exactly ``LOOP_CYCLES`` = 10 state-machine cycles, whichever way it goes:

    0  in_(pins, 17)            the sample: GPIO 0..16 (in_base = GPIO 0), all in the same cycle
    1  jmp(x_dec, "count")      X -= 1: the loop counter (both outcomes go to 2: same cycles)
    2  mov(osr, x)              park the counter, free X for the comparison
    3  mov(x, isr)              X = this sample
    4  jmp(x_not_y, "changed")  Y holds the previous sample
    5  mov(x, osr)              unchanged: counter back,
    6  mov(isr, null) [2]       ISR cleared for the next `in_`, padding to 10 cycles,
    7  jmp("top")               and round again (8 instructions + 2 delay = 10 cycles)
    8  mov(y, x)                changed: this sample is now the previous one,
    9  push(block)              push it (ISR: the 17 pin bits; push clears ISR),
   10  mov(isr, osr)            then the counter
   11  push(block)
   12  mov(x, osr)              counter back; wrap to 0 (10 instructions, 10 cycles)

Every change of any of the 17 pins is pushed as two words: the pin levels (bit n = GPIO n, 1 =
up), then the counter X after that loop's decrement. With X = 0 at the start, the sample of loop
k (k = 0, 1, ...) carries X = ~k (mod 2**32), so k = X ^ 0xFFFFFFFF: **resolution one loop**,
**wrap after 2**32 loops**. At the default 125 MHz system clock the state machine runs at 10 MHz
(divider 12.5, exact in the 16.8 fixed-point divider) and a loop is exactly 1 µs, so the counter
wraps every 2**32 µs = 71.6 minutes; the CPU side (`bridge_core.CounterClock`) extends it to the
64-bit µs timer from an anchor taken when the state machine was started.

Y starts at 0 (never a real sample: 0 would be every button held), so the first loop always
pushes the levels at start. `push(block)`: a full FIFO stalls the state machine rather than lose
half of a pair (FDEBUG.RXSTALL tells; the firmware then restarts the sampler with a new anchor);
the DMA ring drains the FIFO far faster than it fills (see README.md in this folder).

``asm_pio`` swaps this module's globals while it assembles, so the program may use only the
assembler's names and literals (17 is `BUTTON_PINS`).
"""

import rp2

LOOP_CYCLES = 10   # state-machine cycles per loop, whichever path
BUTTON_PINS = 17   # GPIO 0..16: station s's slap on GPIO 2s, flip on 2s+1, MENU on GPIO 16
WORDS_PER_CHANGE = 2


@rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT, fifo_join=rp2.PIO.JOIN_RX)
def sampler():
    wrap_target()
    label("top")
    in_(pins, 17)
    jmp(x_dec, "count")
    label("count")
    mov(osr, x)
    mov(x, isr)
    jmp(x_not_y, "changed")
    mov(x, osr)
    mov(isr, null)[2]
    jmp("top")
    label("changed")
    mov(y, x)
    push(block)
    mov(isr, osr)
    push(block)
    mov(x, osr)
    wrap()
