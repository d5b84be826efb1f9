"""arbiter's sensor-board firmware for a Raspberry Pi Pico (RP2040) under MicroPython.

Copied to the Pico with config.py, wire.py, debounce.py and device.py (docs/protocol.md,
section Flashing); MicroPython runs main.py at power-on. It scans the sensors SCAN_HZ times a
second, debounces them, speaks the protocol over USB (or a UART), drives the NeoPixels from the
host's LED frames, and feeds a watchdog that restarts it if the loop ever stalls.

The protocol and debounce code is shared with the host (``device.DeviceCore``); this file adds
only what touches the chip: pins, the ADC, the NeoPixels, the USB port, the watchdog. It is
tested on the host against the real host driver with a fake ``machine`` module
(tests/test_serial_firmware.py); everything the chip provides is passed in or looked up from
``machine`` at run time for that reason.
"""

import time

import machine

try:
    from firmware_bridge import device, wire
    from firmware_bridge.firmware import config
except ImportError:  # on the Pico: the files side by side
    import config
    import device
    import wire

FIRMWARE = "arbiter-pico 1.0"


class MatrixScanner:
    """Reed switches in a diode matrix: drive one row low, read which columns it pulls low."""

    def __init__(self, row_pins, col_pins, clock, settle_us=10):
        Pin = machine.Pin
        self.rows = [Pin(p, Pin.OUT, value=1) for p in row_pins]
        self.cols = [Pin(p, Pin.IN, Pin.PULL_UP) for p in col_pins]
        self.clock = clock
        self.settle_us = settle_us
        self.raw = [0] * (len(self.rows) * len(self.cols))

    def scan(self):
        raw = self.raw
        i = 0
        for row in self.rows:
            row.value(0)
            self.clock.sleep_us(self.settle_us)
            for col in self.cols:
                raw[i] = 0 if col.value() else wire.NORTH
                i += 1
            row.value(1)
        return raw


class HallMuxScanner:
    """Analog hall sensors through 16-channel multiplexers: select a row (multiplexer) and a
    column (channel), read the voltage: near the middle no magnet, above or below it a magnet
    north or south side down, at either rail a fault."""

    def __init__(self, rows, cols, select_pins, mux_pins, adc_pin, clock, settle_us=10, mid=20000, band=2500,
                 fault_low=800, fault_high=64000, north_high=True):
        Pin = machine.Pin
        self.nrows = rows
        self.ncols = cols
        self.select = [Pin(p, Pin.OUT, value=0) for p in select_pins]
        self.mux = [Pin(p, Pin.OUT, value=0) for p in mux_pins]
        self.adc = machine.ADC(adc_pin)
        self.clock = clock
        self.settle_us = settle_us
        self.lo = mid - band
        self.hi = mid + band
        self.fault_low = fault_low
        self.fault_high = fault_high
        self.north_high = north_high
        self.raw = [0] * (rows * cols)

    @staticmethod
    def _bits(pins, value):
        for k, pin in enumerate(pins):
            pin.value((value >> k) & 1)

    def classify(self, v):
        if v < self.fault_low or v > self.fault_high:
            return wire.FAULT
        if v > self.hi:
            return wire.NORTH if self.north_high else wire.SOUTH
        if v < self.lo:
            return wire.SOUTH if self.north_high else wire.NORTH
        return wire.EMPTY

    def scan(self):
        raw = self.raw
        i = 0
        for r in range(self.nrows):
            self._bits(self.select, r)
            for c in range(self.ncols):
                self._bits(self.mux, c)
                self.clock.sleep_us(self.settle_us)
                raw[i] = self.classify(self.adc.read_u16())
                i += 1
        return raw


class Pixels:
    """The board's NeoPixels, set from the LED bytes the host sent, at the host's brightness."""

    def __init__(self, pin, count):
        self.np = None
        if count:
            import neopixel

            self.np = neopixel.NeoPixel(machine.Pin(pin), count)
        self.count = count

    def update(self, core):
        np = self.np
        if np is None:
            return
        b = core.brightness
        leds = core.leds
        for i in range(self.count):
            k = 3 * i
            np[i] = (leds[k] * b // 255, leds[k + 1] * b // 255, leds[k + 2] * b // 255)
        np.write()


class UsbLink:
    """The Pico's USB serial port (the same one the MicroPython prompt uses)."""

    def __init__(self):
        import micropython
        import select
        import sys

        micropython.kbd_intr(-1)  # a 0x03 byte inside a frame must not stop the program
        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def read(self):
        data = b""
        while len(data) < 512 and self.poller.poll(0):
            data += self.inp.read(1)
        return data

    def write(self, data):
        self.out.write(data)


class UartLink:
    """A hardware UART: GP0 transmits, GP1 receives (through a USB-serial adapter, or a long wire)."""

    def __init__(self, baud):
        self.uart = machine.UART(0, baudrate=baud, tx=machine.Pin(0), rx=machine.Pin(1), rxbuf=1024)

    def read(self):
        n = self.uart.any()
        return self.uart.read(n) if n else b""

    def write(self, data):
        self.uart.write(data)


def make_scanner(cfg, clock):
    if cfg.SCANNER == "hall-mux":
        return HallMuxScanner(cfg.ROWS, cfg.COLS, cfg.ROW_SELECT_PINS, cfg.MUX_PINS, cfg.ADC_PIN, clock,
                              cfg.SETTLE_US, cfg.HALL_MID, cfg.HALL_BAND, cfg.HALL_FAULT_LOW, cfg.HALL_FAULT_HIGH,
                              cfg.NORTH_HIGH)
    if len(cfg.ROW_PINS) != cfg.ROWS or len(cfg.COL_PINS) != cfg.COLS:
        raise ValueError("config.py: ROW_PINS and COL_PINS must list ROWS and COLS pins")
    return MatrixScanner(cfg.ROW_PINS, cfg.COL_PINS, clock, cfg.SETTLE_US)


def bootsel_pressed():
    """The Pico's BOOTSEL button, held: stop, so that mpremote can reach the prompt to copy files."""
    try:
        import rp2

        return rp2.bootsel_button() == 1
    except (ImportError, AttributeError):
        return False


def _boot_id():
    try:
        import random

        return random.getrandbits(16)
    except (ImportError, AttributeError):
        return time.ticks_us() & 0xFFFF


class Firmware:
    """The board: ``start()`` once, then ``step()`` for ever (``run()`` does both).

    ``clock`` provides MicroPython's ``ticks_ms``, ``ticks_diff``, ``ticks_add``, ``sleep_ms``
    and ``sleep_us`` (the ``time`` module on the chip); ``link`` reads and writes bytes.
    """

    def __init__(self, cfg=config, link=None, clock=time, scanner=None, pixels=None):
        self.cfg = cfg
        self.clock = clock
        self.link = link or (UartLink(cfg.BAUD) if cfg.LINK == "uart" else UsbLink())
        self.scanner = scanner or make_scanner(cfg, clock)
        self.pixels = pixels or Pixels(cfg.LED_PIN, cfg.LED_COUNT)
        self.wdt = None
        self.core = None
        self.period = max(1, 1000 // cfg.SCAN_HZ)
        self.next_scan = 0
        self.scans = 0

    def start(self):
        cfg = self.cfg
        watchdog = machine.reset_cause() == machine.WDT_RESET
        self.wdt = machine.WDT(timeout=cfg.WATCHDOG_MS)
        sensing = wire.POLARITY if cfg.SENSING == "polarity" else wire.OCCUPANCY
        self.core = device.DeviceCore(cfg.ROWS, cfg.COLS, sensing, cfg.LED_COUNT, self.link.write, cfg.SCAN_HZ,
                                      cfg.FULL_SCAN_MS, cfg.HEARTBEAT_MS, FIRMWARE, _boot_id(), cfg.LOCKOUT_SCANS,
                                      on_leds=self.pixels.update, on_brightness=self.pixels.update)
        self.pixels.update(self.core)  # every LED off
        now = self.clock.ticks_ms()
        error = (wire.ERR_WATCHDOG, "restarted by the watchdog") if watchdog else None
        self.core.boot(now, self.scanner.scan(), error)
        self.next_scan = self.clock.ticks_add(now, self.period)

    def step(self):
        """Read the host, scan when a scan is due, feed the watchdog; otherwise rest a millisecond."""
        clock = self.clock
        data = self.link.read()
        now = clock.ticks_ms()
        if data:
            self.core.receive(data, now)
        if clock.ticks_diff(self.next_scan, now) <= 0:
            self.core.scan(self.scanner.scan(), now)
            self.next_scan = clock.ticks_add(self.next_scan, self.period)
            if clock.ticks_diff(self.next_scan, now) < -10 * self.period:
                self.next_scan = clock.ticks_add(now, self.period)  # fell far behind: no bursts of scans
            self.wdt.feed()
            self.scans += 1
            if self.scans % 50 == 0 and bootsel_pressed():
                raise SystemExit("BOOTSEL held: the firmware stops, the MicroPython prompt is free")
        elif not data:
            clock.sleep_ms(1)

    def run(self):
        self.start()
        while True:
            self.step()


if __name__ == "__main__":
    try:
        Firmware().run()
    except SystemExit:
        import micropython

        micropython.kbd_intr(3)  # Ctrl-C works again at the prompt
