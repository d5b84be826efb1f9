# The sensor board's settings: copied to the Pico beside main.py.
#
# `arbiter sensor-firmware BOARD --out DIR` writes this file for a board (its matrix size from
# the board's sensor map, the LED count from its LED map); edit the pins to match your wiring.
# These defaults are for a Nine Men's Morris reed-switch board (docs/sensor-board.md).

BOARD = "morris9"
SENSING = "occupancy"  # "occupancy": reed switches; "polarity": hall sensors under magnets
ROWS = 7
COLS = 7

# "matrix": switches in a diode matrix; each row pin is driven low in turn and the column pins
# (pulled up) read low where a switch is closed. Rows + columns must fit the Pico's pins.
# "hall-mux": analog hall sensors through 16-channel multiplexers (CD74HC4067), one multiplexer
# per matrix row, selected by the row number in binary on ROW_SELECT_PINS (into 74HC154
# decoders driving the multiplexers' enable pins); the column is the multiplexer channel.
SCANNER = "matrix"
ROW_PINS = [2, 3, 4, 5, 6, 7, 8]  # GP2..GP8
COL_PINS = [9, 10, 11, 12, 13, 14, 15]  # GP9..GP15
SETTLE_US = 10  # after driving a row, before reading the columns

ROW_SELECT_PINS = [2, 3, 4, 5, 6]  # hall-mux: the row number, least significant bit first
MUX_PINS = [7, 8, 9, 10]  # hall-mux: S0..S3 of every multiplexer
ADC_PIN = 26  # hall-mux: the multiplexers' common output (GP26 = ADC0)
HALL_MID = 20000  # read_u16() with no magnet (DRV5053 at 1.0 V of 3.3 V)
HALL_BAND = 2500  # within MID +- BAND: no magnet
HALL_FAULT_LOW = 800  # below: a broken wire or a dead sensor
HALL_FAULT_HIGH = 64000  # above: a short to 3.3 V
NORTH_HIGH = True  # a north pole down reads above MID (the DRV5053VA; False for the -OA parts)

LED_PIN = 16  # GP16: the NeoPixels' data line (through a 74AHCT125 to 5 V)
LED_COUNT = 27  # 24 points and the turn, clock and error pixels

SCAN_HZ = 100
FULL_SCAN_MS = 250
HEARTBEAT_MS = 1000
LOCKOUT_SCANS = 3
WATCHDOG_MS = 2000

LINK = "usb"  # "usb": the Pico's own USB port; "uart": GP0 (TX) and GP1 (RX) at BAUD
BAUD = 115200
