"""LED frames as pictures: the board seen from above in a dark room, lit pixels glowing.

The ``png`` backend records what the LEDs would show, for the docs (``docs/signals/``) and for
tests that want to look at a frame. Drawing is done with Pillow from the engine's coordinates
(the same geometry the LED map is laid out from), so a picture shows each pixel where the map
puts it. Colours are shown as the eye sees an LED: a pixel at a quarter of full duty looks about
half as bright, so values are lifted by a 1/2.2 gamma before drawing; the frame itself (what the
strip is sent) is never changed.

Only spots with a pixel in the map are drawn lit; pixels the map does not use (the dark gaps of
a pitched strip) are not drawn, since they sit under nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from engine.boards.graph import wrapped_delta

from .layout import STATUS, LayoutMap, Spots, nearest_spacing
from .pixels import LedError, Pixels
from .palette import OFF, RGB
from .power import Power

BACKGROUND = (22, 22, 28)
LINE = (78, 74, 84)
UNLIT_FILL = (40, 40, 48)
UNLIT_EDGE = (92, 92, 104)
LABEL = (160, 160, 172)
CAPTION = (235, 235, 240)
STATUS_BAR = 56
STATUS_RADIUS = 13


def _font(size: int) -> ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def perceived(colour: RGB) -> RGB:
    """How bright a pixel sent ``colour`` looks (gamma 2.2 lift), for drawing it on a screen."""
    return tuple(round(255 * (v / 255) ** (1 / 2.2)) for v in colour)  # type: ignore[return-value]


class BoardPicture:
    """Where each spot and status pixel is drawn for one board; draws frames as PIL images."""

    def __init__(self, layout: LayoutMap, spots: Spots, *, labels: bool | None = None,
                 unit_px: float | None = None) -> None:
        self.layout = layout
        self.spots = spots
        spacing = nearest_spacing(spots)
        self.unit_px = unit_px or max(72.0, min(140.0, 34.0 / spacing))
        self.radius = max(4, round(0.28 * spacing * self.unit_px))
        self.labels = labels if labels is not None else spacing * self.unit_px >= 60
        self.margin = 60 if self.labels else 40  # room for the names of the outermost spots
        x0, y0, x1, y1 = spots.extent()
        self.x0, self.y1 = x0, y1
        self.width = round((x1 - x0) * self.unit_px) + 2 * self.margin
        self.board_height = round((y1 - y0) * self.unit_px) + 2 * self.margin
        self.header = 36
        self.height = self.header + self.board_height + STATUS_BAR

    def xy(self, pos: tuple[float, float]) -> tuple[float, float]:
        """Pixel position of board coordinates ``pos`` (y flipped: image rows run down)."""
        return (self.margin + (pos[0] - self.x0) * self.unit_px,
                self.header + self.margin + (self.y1 - pos[1]) * self.unit_px)

    def status_xy(self, role: str) -> tuple[float, float]:
        k = STATUS.index(role)
        return (self.width / 2 + (k - 1) * 130 - 30, self.header + self.board_height + STATUS_BAR / 2 - 4)

    def draw(self, frame: Sequence[RGB], caption: str | None = None) -> Image.Image:
        """The picture of ``frame`` (one colour per pixel of the strip), captioned."""
        if len(frame) != self.layout.count:
            raise ValueError(f"a frame for this map has {self.layout.count} colours, not {len(frame)}")
        img = Image.new("RGB", (self.width, self.height), BACKGROUND)
        d = ImageDraw.Draw(img)
        self._lines(d)
        lit: list[tuple[tuple[float, float], RGB, str]] = []
        r = self.radius
        font = _font(max(10, min(14, r)))
        for name, pos in self.spots.coords.items():
            centre = self.xy(pos)
            idx = self.layout.points.get(name, ())
            colour = _brightest([frame[i] for i in idx]) if idx else OFF
            gem = name in self.spots.gems
            if colour == OFF:
                _shape(d, centre, r if not gem else r * 0.8, UNLIT_FILL, UNLIT_EDGE, gem)
            else:
                lit.append((centre, perceived(colour), "gem" if gem else "point"))
            if self.labels:
                d.text((centre[0] + r + 2, centre[1] + r - 4), name, fill=LABEL, font=font)
        small = _font(18)
        for role in STATUS:
            centre = self.status_xy(role)
            idx = self.layout.status.get(role, ())
            colour = _brightest([frame[i] for i in idx]) if idx else OFF
            if colour == OFF:
                _shape(d, centre, STATUS_RADIUS, UNLIT_FILL, UNLIT_EDGE, False)
            else:
                lit.append((centre, perceived(colour), "status"))
            d.text((centre[0] + STATUS_RADIUS + 6, centre[1] - 11), role if idx else f"{role} (none)", fill=LABEL, font=small)
        if lit:
            img = self._glow(img, lit)
        if caption:
            ImageDraw.Draw(img).text((14, 9), caption, fill=CAPTION, font=_font(17))
        return img

    def _lines(self, d: ImageDraw.ImageDraw) -> None:
        board = self.spots.board
        period = getattr(board, "period", None)
        w = 2 if self.unit_px * nearest_spacing(self.spots) >= 40 else 1
        for a, b in board.edges:
            pa, pb = board.coords[a], board.coords[b]
            dx, dy = wrapped_delta(pa, pb, period)
            if abs(pa[0] + dx - pb[0]) < 1e-9 and abs(pa[1] + dy - pb[1]) < 1e-9:
                d.line([self.xy(pa), self.xy(pb)], fill=LINE, width=w)
                continue
            # An edge that wraps leaves one side and comes back at the other: half of it is
            # drawn from each end, where it really runs.
            for (x, y), sx, sy in ((pa, dx, dy), (pb, -dx, -dy)):
                d.line([self.xy((x, y)), self.xy((x + sx / 2, y + sy / 2))], fill=LINE, width=w)

    def _glow(self, img: Image.Image, lit: list[tuple[tuple[float, float], RGB, str]]) -> Image.Image:
        """Lit pixels: a soft halo (blurred, added to the picture), then a bright core."""
        k = 4  # the halo is soft: drawn and blurred at a quarter of the size, then scaled up
        halo = Image.new("RGB", (img.width // k + 1, img.height // k + 1), (0, 0, 0))
        h = ImageDraw.Draw(halo)
        for (x, y), colour, kind in lit:
            rr = (self.radius if kind != "status" else STATUS_RADIUS) * 2.0 / k
            h.ellipse([x / k - rr, y / k - rr, x / k + rr, y / k + rr], fill=tuple(int(v * 0.75) for v in colour))
        halo = halo.filter(ImageFilter.GaussianBlur(max(0.5, self.radius * 0.8 / k)))
        halo = halo.resize((halo.width * k, halo.height * k), Image.BILINEAR).crop((0, 0, img.width, img.height))
        img = ImageChops.add(img, halo)
        d = ImageDraw.Draw(img)
        for (x, y), colour, kind in lit:
            rr = self.radius if kind != "status" else STATUS_RADIUS
            whiten = 0.45 * max(colour) / 255  # a dim pixel has no white-hot centre
            core = tuple(min(255, round(v + (255 - v) * whiten)) for v in colour)
            if kind == "gem":
                _shape(d, (x, y), rr * 0.9, colour, core, True)
            else:
                d.ellipse([x - rr, y - rr, x + rr, y + rr], fill=colour)
                d.ellipse([x - rr * 0.45, y - rr * 0.45, x + rr * 0.45, y + rr * 0.45], fill=core)
        return img


def _brightest(colours: list[RGB]) -> RGB:
    return max(colours, key=sum) if colours else OFF


def _shape(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, fill: RGB, edge: RGB, gem: bool) -> None:
    x, y = c
    if gem:
        d.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=fill, outline=edge)
    else:
        d.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=edge, width=2)


def filmstrip(images: Sequence[Image.Image], labels: Sequence[str] = (), scale: float = 0.5,
              title: str | None = None) -> Image.Image:
    """Pictures side by side (each scaled by ``scale``), labelled underneath: an animation on paper."""
    if not images:
        raise ValueError("a filmstrip needs at least one picture")
    w, h = images[0].size
    sw, sh = round(w * scale), round(h * scale)
    top = 34 if title else 0
    font = _font(17)
    width = max(sw * len(images) + 8 * (len(images) - 1), round(font.getlength(title)) + 20 if title else 0)
    out = Image.new("RGB", (width, top + sh + 26), BACKGROUND)
    d = ImageDraw.Draw(out)
    if title:
        d.text((10, 8), title, fill=CAPTION, font=font)
    for k, im in enumerate(images):
        out.paste(im.resize((sw, sh), Image.LANCZOS), (k * (sw + 8), top))
        if k < len(labels):
            d.text((k * (sw + 8) + 10, top + sh + 4), labels[k], fill=LABEL, font=_font(14))
    return out


class ImagePixels(Pixels):
    """The ``png`` backend: each shown frame becomes a picture of the board.

    ``out``: ``x.png`` keeps the latest frame there; ``x.gif`` writes every frame as an
    animation on close (``frame_ms`` per frame); a name with ``{n}`` (``frames/f{n:03}.png``)
    writes one file per frame; None keeps the pictures in ``images`` only.
    """

    kind = "png"

    def __init__(self, layout: LayoutMap, spots: Spots, *, power: Power | None = None,
                 out: str | Path | None = None, labels: bool | None = None, frame_ms: int = 400) -> None:
        super().__init__(layout.count, power=power)
        self.picture = BoardPicture(layout, spots, labels=labels)
        self.out = str(out) if out is not None else None
        if self.out is not None and not ("{n" in self.out or self.out.lower().endswith((".png", ".gif"))):
            raise LedError(f"the png backend writes FILE.png, FILE.gif or a name with {{n}}, not {self.out}")
        self.frame_ms = frame_ms
        self.images: list[Image.Image] = []
        self.written: list[str] = []
        self.frame_number = 0

    @property
    def _animated(self) -> bool:
        return self.out is None or self.out.lower().endswith(".gif")

    def _write(self, frame: list[RGB], caption: str | None) -> None:
        if self._closing:  # the all-dark frame of close() is not a frame anyone asked for
            return
        img = self.picture.draw(frame, caption)
        self.frame_number += 1
        if self._animated:
            self.images.append(img)
            return
        self.images = [img]
        path = self.out.format(n=self.frame_number) if "{n" in self.out else self.out
        _save(img, path)
        if path not in self.written:
            self.written.append(path)

    _closing = False

    def close(self) -> None:
        """Write the GIF (if that is the output); the final all-dark frame is not recorded."""
        self._closing = True
        super().close()

    def _release(self) -> None:
        if self.out is not None and self.out.lower().endswith(".gif") and self.images:
            path = Path(self.out)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                first, *rest = self.images
                first.save(path, save_all=True, append_images=rest, duration=self.frame_ms, loop=0)
            except OSError as exc:
                raise LedError(f"cannot write {path}: {exc.strerror or exc}") from None
            self.written.append(str(path))


def _save(img: Image.Image, path: str) -> None:
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        img.save(path)
    except OSError as exc:
        raise LedError(f"cannot write {path}: {exc.strerror or exc}") from None
