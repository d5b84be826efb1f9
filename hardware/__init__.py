"""The board's outputs and inputs: LEDs, buttons, the LED layout map and the signal language.

Each concern is a small module of its own:

``layout``    which pixel lights which spot (maps for serpentine strips, rings, matrices)
``leds``      the pixel interface and ``open_pixels`` (neopixel, neopixel-spi, terminal, png, memory)
``power``     the brightness cap and the current budget every frame passes through
``palette``   the colours of the signals (standard and colour-blind)
``signals``   the events the referee sends and ``SignalPlayer``, which turns them into frames
``buttons``   confirm / undo / menu, on GPIO (RPi.GPIO, or rpi-lgpio on a Pi 5) or simulated

Hardware knows nothing of rules: it imports only the engine's board geometry. Real device
libraries are imported only when their backend is chosen, so this package imports anywhere.
"""
