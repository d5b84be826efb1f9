"""Addresses for the players: the URL in words and as a QR code a phone's camera reads.

The QR code is drawn with half blocks (two rows of modules a line), dark on light whatever the
terminal's colours, with the quiet zone a reader needs. ``qrcode`` (the ``web`` extra) is imported
only here; without it the address is still printed.
"""

from __future__ import annotations

__all__ = ["qr_svg", "qr_text"]


def qr_text(url: str) -> str:
    """``url`` as a QR code in text (half blocks), or "" when ``qrcode`` is not installed."""
    try:
        import qrcode
    except ImportError:
        return ""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(url)
    code.make(fit=True)
    m = code.get_matrix()  # True: dark module; includes the border
    if len(m) % 2:
        m.append([False] * len(m[0]))
    lines = []
    for top, bottom in zip(m[::2], m[1::2]):
        # light is drawn, dark is left blank: blocks in the terminal's text colour read as light
        # on a dark terminal; the codes below force the colours so it reads on any terminal.
        row = "".join({(False, False): "█", (True, True): " ", (False, True): "▀", (True, False): "▄"}[(a, b)]
                      for a, b in zip(top, bottom))
        lines.append("\x1b[97;40m" + row + "\x1b[0m")
    return "\n".join(lines)


def qr_svg(url: str) -> str:
    """``url`` as a QR code in one SVG element (for the owner's page to show each player's link),
    or "" when ``qrcode`` is not installed."""
    try:
        import qrcode
    except ImportError:
        return ""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(url)
    code.make(fit=True)
    m = code.get_matrix()
    n = len(m)
    dark = "".join(f"M{x} {y}h1v1h-1z" for y, row in enumerate(m) for x, on in enumerate(row) if on)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n} {n}" class="qr" shape-rendering="crispEdges">'
            f'<rect width="{n}" height="{n}" fill="#fff"/><path d="{dark}" fill="#000"/></svg>')
