"""Photoreal frames of a printed board with real pieces, rendered by Blender/Cycles.

Run inside Blender (not the project's virtualenv)::

    blender -b --factory-startup -t 2 -P benchmarks/photoreal/scene.py -- JOBS.json

``JOBS.json`` (written by ``make_set.py``) is ``{"boards": {id: board}, "frames": [frame, ...]}``.
Everything random was drawn by ``make_set.py``: this script only builds what it is told, so a
set re-renders identically. The scene is built once per board (paper or cloth, table, hand,
piece prototypes); per frame only the pieces, lamps, camera, exposure and hand change.

Units are metres; the board's print lies centred on the world origin, its image's top edge
towards +Y, so a print pixel (col, row) is at ``((col + 0.5) / W - 0.5) * width``,
``(0.5 - (row + 0.5) / H) * height``. ``make_set.py`` gives every piece and spot in world x, y.

For each frame the script writes ``<out>.png`` and ``<out>.json``: every spot's pixel in the
(undistorted) render and the spots the hand or arm hides from the camera (a ray from the camera
to the spot hits the hand first).

This script must not import the project (it runs under Blender's own Python): the board's
picture is the printable PNG, the reader and the project's simulator play no part.
"""

import json
import math
import sys
import time

import bmesh
import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Euler, Matrix, Vector

MM = 0.001


# ---------------------------------------------------------------------------- surface shape
def surface_z(shape, x, y):
    """Height (m) of the paper or cloth at (x, y): gentle bows, wrinkles and folds.

    ``shape`` = {"base": z0, "waves": [[amp, kx, ky, phase], ...], "folds": [[amp, px, py, nx, ny, width], ...]}.
    """
    z = shape.get("base", 0.0)
    for amp, kx, ky, ph in shape.get("waves", []):
        z += amp * math.sin(kx * x + ky * y + ph)
    for amp, px, py, nx, ny, w in shape.get("folds", []):
        d = (x - px) * nx + (y - py) * ny
        z += amp * math.exp(-(d / w) ** 2)
    return z


def rest_lift(shape, x, y, gx, gy, reach, rings=6, around=36):
    """How far (m) a rigid piece of radius ``reach`` centred at (x, y), tilted to the surface's
    slope (gx, gy) there, must rise to lie on the surface rather than through it: the most the
    surface stands above that tilted plane under the piece (0 where it stands nowhere above).
    A fold narrower than a ring would otherwise bury one side of it (up to 3.6 mm of a 4.8 mm
    ring in the sets rendered before this)."""
    z0 = surface_z(shape, x, y)
    most = 0.0
    for i in range(1, rings + 1):
        r = reach * i / rings
        for k in range(around):
            a = 2 * math.pi * k / around
            px, py = x + r * math.cos(a), y + r * math.sin(a)
            most = max(most, surface_z(shape, px, py) - (z0 + gx * (px - x) + gy * (py - y)))
    return most


def footprint(p):
    """The radius (m) a piece covers on the board: a man's or a gem's, a ring's outer edge."""
    a, b = p["size"]
    return a + b if p["shape"] == "ring" else a


# ---------------------------------------------------------------------------- materials
def node_mat(name):
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    nt = m.node_tree
    bsdf = nt.nodes["Principled BSDF"]
    return m, nt, bsdf


def set_input(bsdf, name, value):
    if name in bsdf.inputs:
        bsdf.inputs[name].default_value = value


def plastic(name, rgb, rough, clearcoat=0.0):
    m, nt, b = node_mat(name)
    set_input(b, "Base Color", (*rgb, 1))
    set_input(b, "Roughness", rough)
    set_input(b, "Specular", 0.5)
    set_input(b, "Clearcoat", clearcoat)
    set_input(b, "Clearcoat Roughness", 0.05)
    return m


def metal(name, rgb, rough):
    m, nt, b = node_mat(name)
    set_input(b, "Base Color", (*rgb, 1))
    set_input(b, "Metallic", 1.0)
    set_input(b, "Roughness", rough)
    return m


def glass(name, rgb, rough, opacity=0.6):
    """Coloured glass as a glossy tinted body partly seen through (a transparent share of
    ``1 - opacity``, tinted by the colour): the training scenes' glass men. Not a refracting
    solid: without caustics Cycles leaves the paper under such a man in full shadow, and the
    man looks black whatever his colour."""
    m, nt, b = node_mat(name)
    set_input(b, "Base Color", (*rgb, 1))
    set_input(b, "Roughness", rough)
    set_input(b, "Clearcoat", 1.0)
    set_input(b, "Clearcoat Roughness", 0.03)
    clear = nt.nodes.new("ShaderNodeBsdfTransparent")
    clear.inputs["Color"].default_value = (*[c ** 0.5 for c in rgb], 1)
    mix = nt.nodes.new("ShaderNodeMixShader")
    mix.inputs["Fac"].default_value = opacity
    out = nt.nodes["Material Output"]
    nt.links.new(clear.outputs["BSDF"], mix.inputs[1])
    nt.links.new(b.outputs["BSDF"], mix.inputs[2])
    nt.links.new(mix.outputs["Shader"], out.inputs["Surface"])
    return m


def wood(name, light, dark, rough, clearcoat, scale=60.0, seed=0.0):
    """Procedural wood: stretched wave bands, noise distortion, two tones."""
    m, nt, b = node_mat(name)
    tc = nt.nodes.new("ShaderNodeTexCoord")
    mp = nt.nodes.new("ShaderNodeMapping")
    mp.inputs["Scale"].default_value = (1.0, 0.08, 1.0)
    mp.inputs["Location"].default_value = (seed, seed * 0.7, 0)
    wave = nt.nodes.new("ShaderNodeTexWave")
    wave.inputs["Scale"].default_value = scale
    wave.inputs["Distortion"].default_value = 1.5
    wave.inputs["Detail"].default_value = 1.0
    wave.inputs["Detail Scale"].default_value = 0.5
    ramp = nt.nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].color = (*dark, 1)
    ramp.color_ramp.elements[1].color = (*light, 1)
    nt.links.new(tc.outputs["Object"], mp.inputs["Vector"])
    nt.links.new(mp.outputs["Vector"], wave.inputs["Vector"])
    nt.links.new(wave.outputs["Fac"], ramp.inputs["Fac"])
    nt.links.new(ramp.outputs["Color"], b.inputs["Base Color"])
    set_input(b, "Roughness", rough)
    set_input(b, "Clearcoat", clearcoat)
    set_input(b, "Clearcoat Roughness", 0.15)
    return m


def printed(name, image_path, tint, rough, cloth):
    """The printable PNG on paper (``cloth`` False) or on a bandanna (a woven bump, sheen)."""
    m, nt, b = node_mat(name)
    img = bpy.data.images.load(image_path)
    img.colorspace_settings.name = "sRGB"
    tex = nt.nodes.new("ShaderNodeTexImage")
    tex.image = img
    tex.interpolation = "Cubic"
    tex.extension = "EXTEND"
    mix = nt.nodes.new("ShaderNodeMixRGB")
    mix.blend_type = "MULTIPLY"
    mix.inputs["Fac"].default_value = 1.0
    mix.inputs["Color2"].default_value = (*tint, 1)
    nt.links.new(tex.outputs["Color"], mix.inputs["Color1"])
    nt.links.new(mix.outputs["Color"], b.inputs["Base Color"])
    set_input(b, "Roughness", rough)
    set_input(b, "Specular", 0.3 if cloth else 0.4)
    bump = nt.nodes.new("ShaderNodeBump")
    tc = nt.nodes.new("ShaderNodeTexCoord")
    if cloth:
        set_input(b, "Sheen", 0.5)
        # a weave: two crossed fine waves, plus a coarse noise for uneven cloth
        wa = nt.nodes.new("ShaderNodeTexWave")
        wa.inputs["Scale"].default_value = 900.0
        wa.wave_type = "BANDS"
        wa.bands_direction = "X"
        wb = nt.nodes.new("ShaderNodeTexWave")
        wb.inputs["Scale"].default_value = 900.0
        wb.bands_direction = "Y"
        add = nt.nodes.new("ShaderNodeMath")
        add.operation = "MULTIPLY"
        nt.links.new(tc.outputs["Object"], wa.inputs["Vector"])
        nt.links.new(tc.outputs["Object"], wb.inputs["Vector"])
        nt.links.new(wa.outputs["Fac"], add.inputs[0])
        nt.links.new(wb.outputs["Fac"], add.inputs[1])
        nt.links.new(add.outputs["Value"], bump.inputs["Height"])
        bump.inputs["Strength"].default_value = 0.25
        bump.inputs["Distance"].default_value = 0.0004
    else:
        noise = nt.nodes.new("ShaderNodeTexNoise")
        noise.inputs["Scale"].default_value = 400.0
        noise.inputs["Detail"].default_value = 1.0
        nt.links.new(tc.outputs["Object"], noise.inputs["Vector"])
        nt.links.new(noise.outputs["Fac"], bump.inputs["Height"])
        bump.inputs["Strength"].default_value = 0.05
        bump.inputs["Distance"].default_value = 0.0002
    nt.links.new(bump.outputs["Normal"], b.inputs["Normal"])
    return m


def skin(name, rgb):
    m, nt, b = node_mat(name)
    set_input(b, "Base Color", (*rgb, 1))
    set_input(b, "Roughness", 0.45)
    set_input(b, "Subsurface", 0.0)  # subsurface scattering doubled a hand frame's render time
    set_input(b, "Subsurface Color", (0.9, 0.35, 0.25, 1))
    set_input(b, "Subsurface Radius", (0.004, 0.002, 0.001))
    set_input(b, "Specular", 0.35)
    return m


def sleeve(name, rgb):
    m, nt, b = node_mat(name)
    set_input(b, "Base Color", (*rgb, 1))
    set_input(b, "Roughness", 0.85)
    set_input(b, "Sheen", 0.4)
    return m


# ---------------------------------------------------------------------------- meshes
def link(obj):
    bpy.context.scene.collection.objects.link(obj)
    return obj


def grid_surface(name, width, height, shape, nx, ny, mat):
    """A subdivided rectangle (centred, UV 0..1 over it) shaped by ``surface_z``."""
    me = bpy.data.meshes.new(name)
    bm = bmesh.new()
    uv = bm.loops.layers.uv.new("UVMap")
    verts = []
    for j in range(ny + 1):
        row = []
        for i in range(nx + 1):
            x = (i / nx - 0.5) * width
            y = (j / ny - 0.5) * height
            row.append(bm.verts.new((x, y, surface_z(shape, x, y))))
        verts.append(row)
    for j in range(ny):
        for i in range(nx):
            f = bm.faces.new((verts[j][i], verts[j][i + 1], verts[j + 1][i + 1], verts[j + 1][i]))
            f.smooth = True
            for loop in f.loops:
                co = loop.vert.co
                loop[uv].uv = (co.x / width + 0.5, co.y / height + 0.5)
    bm.to_mesh(me)
    bm.free()
    obj = link(bpy.data.objects.new(name, me))
    obj.data.materials.append(mat)
    return obj


def man_mesh(radius, height, bevel):
    bm = bmesh.new()
    bmesh.ops.create_cone(bm, cap_ends=True, cap_tris=False, segments=64, radius1=radius, radius2=radius,
                          depth=height)
    bmesh.ops.translate(bm, verts=bm.verts, vec=(0, 0, height / 2))
    bmesh.ops.bevel(bm, geom=[e for e in bm.edges if len(e.link_faces) == 2 and
                              abs(e.calc_face_angle(0)) > 0.5], offset=bevel, segments=4, profile=0.5,
                    affect="EDGES")
    me = bpy.data.meshes.new("man")
    bm.to_mesh(me)
    bm.free()
    for p in me.polygons:
        p.use_smooth = True
    me.use_auto_smooth = True
    me.auto_smooth_angle = math.radians(40)
    return me


def lathe_mesh(profile, segments=48, name="lathe"):
    """A solid of revolution about z: ``profile`` is [[r, z], ...] from the bottom's centre (r 0)
    up the side to the top's centre (r 0). The training scenes' men (flat, bevelled, domed,
    coins, stones) and cups are all such profiles (``train_scenes.py`` draws them)."""
    bm = bmesh.new()
    rings = []
    for r, z in profile:
        if r <= 1e-9:
            rings.append([bm.verts.new((0.0, 0.0, z))])
        else:
            rings.append([bm.verts.new((r * math.cos(2 * math.pi * i / segments),
                                        r * math.sin(2 * math.pi * i / segments), z)) for i in range(segments)])
    for lo, hi in zip(rings, rings[1:]):
        for i in range(segments):
            k = (i + 1) % segments
            if len(lo) == 1 and len(hi) == 1:
                continue
            if len(lo) == 1:
                bm.faces.new((lo[0], hi[k], hi[i]))
            elif len(hi) == 1:
                bm.faces.new((lo[i], lo[k], hi[0]))
            else:
                bm.faces.new((lo[i], lo[k], hi[k], hi[i]))
    bmesh.ops.recalc_face_normals(bm, faces=bm.faces)
    me = bpy.data.meshes.new(name)
    bm.to_mesh(me)
    bm.free()
    for p in me.polygons:
        p.use_smooth = True
    me.use_auto_smooth = True
    me.auto_smooth_angle = math.radians(40)
    return me


def ring_mesh(major, minor, flatten):
    bm = bmesh.new()
    nu, nv = 64, 20
    vs = []
    for i in range(nu):
        u = 2 * math.pi * i / nu
        row = []
        for j in range(nv):
            v = 2 * math.pi * j / nv
            r = major + minor * math.cos(v)
            row.append(bm.verts.new((r * math.cos(u), r * math.sin(u), minor * flatten * (1 + math.sin(v)))))
        vs.append(row)
    for i in range(nu):
        for j in range(nv):
            f = bm.faces.new((vs[i][j], vs[(i + 1) % nu][j], vs[(i + 1) % nu][(j + 1) % nv], vs[i][(j + 1) % nv]))
            f.smooth = True
    me = bpy.data.meshes.new("ring")
    bm.to_mesh(me)
    bm.free()
    return me


def gem_mesh(radius, height):
    """A flat-backed brilliant: an octagonal table, a crown of facets, a short pavilion."""
    bm = bmesh.new()
    n = 8
    g = [bm.verts.new((radius * math.cos(2 * math.pi * i / n), radius * math.sin(2 * math.pi * i / n),
                       0.25 * height)) for i in range(n)]
    mid = [bm.verts.new((0.8 * radius * math.cos(2 * math.pi * (i + 0.5) / n),
                         0.8 * radius * math.sin(2 * math.pi * (i + 0.5) / n), 0.65 * height)) for i in range(n)]
    t = [bm.verts.new((0.5 * radius * math.cos(2 * math.pi * i / n), 0.5 * radius * math.sin(2 * math.pi * i / n),
                       height)) for i in range(n)]
    b = [bm.verts.new((0.85 * radius * math.cos(2 * math.pi * i / n), 0.85 * radius * math.sin(2 * math.pi * i / n),
                       0.0)) for i in range(n)]
    bm.faces.new(t)
    bm.faces.new(list(reversed(b)))
    for i in range(n):
        k = (i + 1) % n
        bm.faces.new((g[i], g[k], mid[i]))
        bm.faces.new((t[i], mid[i], t[k]))
        bm.faces.new((g[i], mid[i], t[i]))
        bm.faces.new((mid[i], g[k], t[k]))
        bm.faces.new((b[i], b[k], g[k], g[i]))
    bmesh.ops.recalc_face_normals(bm, faces=bm.faces)
    me = bpy.data.meshes.new("gem")
    bm.to_mesh(me)
    bm.free()
    return me


def ellipsoid(name, rx, ry, rz, mat):
    bm = bmesh.new()
    bmesh.ops.create_uvsphere(bm, u_segments=32, v_segments=16, radius=1.0)
    bmesh.ops.scale(bm, vec=(rx, ry, rz), verts=bm.verts)
    me = bpy.data.meshes.new(name)
    bm.to_mesh(me)
    bm.free()
    for p in me.polygons:
        p.use_smooth = True
    obj = bpy.data.objects.new(name, me)
    obj.data.materials.append(mat)
    return obj


# ---------------------------------------------------------------------------- scene
class Scene:
    def __init__(self, board, common):
        self.board = board
        self.common = common
        self.pieces = []
        self.protos = {}
        self.mats = {}
        bpy.ops.wm.read_factory_settings(use_empty=True)
        sc = bpy.context.scene
        self.scene = sc
        sc.render.engine = "CYCLES"
        sc.cycles.device = "CPU"
        sc.cycles.use_denoising = False
        sc.cycles.use_adaptive_sampling = True
        sc.cycles.adaptive_threshold = 0.04
        sc.cycles.adaptive_min_samples = 8
        sc.cycles.max_bounces = 4
        sc.cycles.diffuse_bounces = 1
        sc.cycles.glossy_bounces = 2
        sc.cycles.transmission_bounces = 4
        sc.cycles.transparent_max_bounces = 4
        sc.cycles.caustics_reflective = False
        sc.cycles.caustics_refractive = False
        sc.cycles.blur_glossy = 1.0
        # a board may ask for more bounces (the training scenes' glass men: light passes through
        # two faces of a man and back from the paper under him, and at four bounces he goes dark)
        for name, n in board.get("bounces", {}).items():
            setattr(sc.cycles, f"{name}_bounces", n)
        sc.render.use_persistent_data = True
        sc.render.image_settings.file_format = "PNG"
        sc.render.image_settings.color_mode = "RGB"
        sc.render.image_settings.color_depth = "8"
        sc.render.film_transparent = False
        sc.view_settings.view_transform = "Filmic"
        sc.view_settings.look = "None"
        sc.sequencer_colorspace_settings.name = "sRGB"
        world = bpy.data.worlds.new("world")
        world.use_nodes = True
        sc.world = world
        self.world_bg = world.node_tree.nodes["Background"]

        # table
        tw = board["table"]
        self.table = grid_surface("table", 8.0, 8.0, {"base": -0.0005}, 1, 1,
                                  wood("tablewood", tw["light"], tw["dark"], tw["rough"], 0.2, tw["scale"], tw["seed"]))
        # the print: paper or cloth
        cloth = board["surface"] == "cloth"
        mat = printed("print", board["texture"], board["tint"], board["rough"], cloth)
        n = 160 if cloth else 40
        self.shape = board["shape"]
        # pieces rest on the surface's highest points under them (``rest_lift``): sets made
        # since blind9; the earlier ones re-render as they were stored
        self.rest = bool(board.get("rest", False))
        self.sheet = grid_surface("sheet", board["width"], board["height"], self.shape, n, n, mat)
        if cloth:
            sub = self.sheet.modifiers.new("sub", "SUBSURF")
            sub.levels = sub.render_levels = 1

        # camera
        cam = bpy.data.cameras.new("cam")
        cam.sensor_fit = "HORIZONTAL"
        cam.sensor_width = 36.0
        cam.clip_start = 0.01
        self.cam = link(bpy.data.objects.new("cam", cam))
        sc.camera = self.cam

        # lamps
        la = bpy.data.lights.new("lamp", "AREA")
        self.lamp = link(bpy.data.objects.new("lamp", la))
        self.lamps = [self.lamp]
        self.occluders = []
        wl = bpy.data.lights.new("window", "AREA")
        wl.shape = "RECTANGLE"
        self.window = link(bpy.data.objects.new("window", wl))

        # hand and arm: ellipsoids under one empty
        self.hand = link(bpy.data.objects.new("hand", None))
        self.hand_parts = []
        self.skin = skin("skin", (0.8, 0.55, 0.45))
        self.sleeve = sleeve("sleeve", (0.2, 0.25, 0.4))
        parts = [("forearm", 0.036, 0.16, 0.032, (0, -0.17, 0.05), (math.radians(17), 0, 0), self.skin),
                 ("sleeve", 0.05, 0.16, 0.046, (0, -0.40, 0.12), (math.radians(17), 0, 0), self.sleeve),
                 ("palm", 0.045, 0.052, 0.017, (0, 0.0, 0.0), (0, 0, 0), self.skin),
                 ("thumb", 0.011, 0.032, 0.01, (-0.047, 0.012, -0.002), (0, 0, math.radians(35)), self.skin)]
        for k, dx in enumerate((-0.03, -0.01, 0.01, 0.03)):
            length = (0.036, 0.043, 0.041, 0.032)[k]
            parts.append((f"finger{k}", 0.0095, length, 0.0085, (dx, 0.052 + length * 0.75, -0.003),
                          (math.radians(-6), 0, math.radians(-dx * 60)), self.skin))
        for name, rx, ry, rz, loc, rot, m in parts:
            o = ellipsoid(name, rx, ry, rz, m)
            o.location = loc
            o.rotation_euler = rot
            o.parent = self.hand
            link(o)
            self.hand_parts.append(o)

    # ---------------------------------------------------------------- per frame
    def material(self, spec):
        key = json.dumps(spec, sort_keys=True)
        if key not in self.mats:
            kind = spec["type"]
            name = f"m{len(self.mats)}"
            if kind == "plastic":
                self.mats[key] = plastic(name, spec["rgb"], spec["rough"], spec.get("clearcoat", 0.0))
            elif kind == "wood":
                self.mats[key] = wood(name, spec["rgb"], [c * 0.7 for c in spec["rgb"]], spec["rough"],
                                      spec.get("clearcoat", 0.5), 400.0, spec.get("seed", 0.0))
            elif kind == "metal":
                self.mats[key] = metal(name, spec["rgb"], spec["rough"])
            elif kind == "glass":
                self.mats[key] = glass(name, spec["rgb"], spec["rough"], spec.get("opacity", 0.6))
            else:
                raise ValueError(kind)
        return self.mats[key]

    def proto(self, p):
        key = (p["shape"], round(p["size"][0], 5), round(p["size"][1], 5), json.dumps(p.get("profile")))
        if key not in self.protos:
            shape, (a, b) = p["shape"], p["size"]
            if shape == "lathe":
                self.protos[key] = lathe_mesh(p["profile"])
            elif shape == "man":
                self.protos[key] = man_mesh(a, b, min(0.0012, b * 0.25))
            elif shape == "ring":
                self.protos[key] = ring_mesh(a, b, 0.8)
            else:
                self.protos[key] = gem_mesh(a, b)
            self.protos[key].materials.append(None)
        return self.protos[key]

    def set_pieces(self, pieces):
        for o in self.pieces:
            bpy.data.objects.remove(o, do_unlink=True)
        self.pieces = []
        for k, p in enumerate(pieces):
            o = link(bpy.data.objects.new(f"piece{k}", self.proto(p)))
            x, y = p["x"], p["y"]
            # tilt the piece with the surface under it, and rest it on the surface's highest
            # points under it (a fold's crest), not through them
            e = 0.004
            dzx = (surface_z(self.shape, x + e, y) - surface_z(self.shape, x - e, y)) / (2 * e)
            dzy = (surface_z(self.shape, x, y + e) - surface_z(self.shape, x, y - e)) / (2 * e)
            lift = rest_lift(self.shape, x, y, dzx, dzy, footprint(p)) if self.rest else 0.0
            o.location = (x, y, surface_z(self.shape, x, y) - 0.0002 + lift)
            o.rotation_euler = (-math.atan(dzy), math.atan(dzx), p.get("rot", 0.0))
            if "scale" in p:  # a stone: a little longer one way than the other
                o.scale = (p["scale"][0], p["scale"][1], 1.0)
            # per-object material: the mesh is shared by every piece of its shape
            o.material_slots[0].link = "OBJECT"
            o.material_slots[0].material = self.material(p["material"])
            self.pieces.append(o)

    def set_lights(self, fr):
        """The frame's lamps (``lamps``: the training scenes' none to three; else the one
        ``lamp``), its window and the world light."""
        lamps = fr["lamps"] if "lamps" in fr else [fr["lamp"]]
        while len(self.lamps) < len(lamps):
            la = bpy.data.lights.new(f"lamp{len(self.lamps)}", "AREA")
            self.lamps.append(link(bpy.data.objects.new(f"lamp{len(self.lamps)}", la)))
        for k, obj in enumerate(self.lamps):
            obj.hide_render = k >= len(lamps)
            if k >= len(lamps):
                continue
            lamp, ld = lamps[k], obj.data
            ld.shape = "DISK"
            ld.size = lamp["size"]
            ld.energy = lamp["power"]
            ld.color = lamp["rgb"]
            obj.location = lamp["pos"]
            self.aim(obj, lamp["pos"], lamp["target"])
        win = fr.get("window")
        if win:
            self.window.hide_render = False
            wd = self.window.data
            wd.size, wd.size_y = win["size"]
            wd.energy = win["power"]
            wd.color = win["rgb"]
            self.window.location = win["pos"]
            self.aim(self.window, win["pos"], [0, 0, 0])
        else:
            self.window.hide_render = True
        self.world_bg.inputs["Color"].default_value = (*fr["world"]["rgb"], 1)
        self.world_bg.inputs["Strength"].default_value = fr["world"]["strength"]

    def set_occluders(self, items):
        """Things beside or above the board that cast shadows on it (the training scenes): cups
        standing on the table (``cup``: a lathe profile) and arms held over it (``arm``: an
        ellipsoid forearm and sleeve). ``record`` counts the spots they hide, as a hand's."""
        for o in self.occluders:
            bpy.data.objects.remove(o, do_unlink=True)
        self.occluders = []
        for k, it in enumerate(items or []):
            mat = self.material({"type": "plastic", "rgb": it["rgb"], "rough": it.get("rough", 0.4)})
            if it["kind"] == "cup":
                o = link(bpy.data.objects.new(f"cup{k}", lathe_mesh(it["profile"], 32, "cup")))
                o.data.materials.append(mat)
                o.location = it["pos"]
                self.occluders.append(o)
            elif it["kind"] == "arm":
                rx, ry, rz = it["size"]
                o = link(ellipsoid(f"arm{k}", rx, ry, rz, mat))
                o.location = it["pos"]
                o.rotation_euler = (math.radians(it.get("pitch", 0.0)), 0.0, math.radians(it["heading"]))
                self.occluders.append(o)
            else:
                raise ValueError(it["kind"])

    @staticmethod
    def aim(obj, pos, target):
        d = Vector(target) - Vector(pos)
        obj.rotation_euler = d.to_track_quat("-Z", "Y").to_euler()

    def set_camera(self, c):
        self.cam.data.lens = c["lens"]
        tilt, yaw = math.radians(c["tilt"]), math.radians(c["yaw"])
        rot = Euler((tilt, 0.0, yaw), "XYZ")
        view = rot.to_matrix() @ Vector((0, 0, -1))
        target = Vector(c["target"])
        self.cam.location = target - view * c["distance"]
        roll = Euler((0, 0, math.radians(c.get("roll", 0.0))), "XYZ").to_matrix()
        self.cam.rotation_euler = (rot.to_matrix() @ roll).to_euler()

    def set_hand(self, h):
        show = h is not None
        for o in [self.hand] + self.hand_parts:
            o.hide_render = not show
            o.hide_viewport = not show
        if not show:
            return
        self.hand.location = h["pos"]
        self.hand.rotation_euler = (math.radians(h.get("pitch", 0.0)), math.radians(h.get("roll", 0.0)),
                                    math.radians(h["heading"]))
        self.hand.scale = (h.get("scale", 1.0),) * 3
        self.skin.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (*h["skin"], 1)
        self.sleeve.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (*h["sleeve"], 1)

    def render(self, fr):
        sc = self.scene
        sc.render.resolution_x, sc.render.resolution_y = fr["res"]
        sc.render.resolution_percentage = 100
        sc.cycles.samples = fr["samples"]
        sc.cycles.seed = fr["seed"]
        sc.view_settings.exposure = fr["exposure"]
        self.set_pieces(fr["pieces"])
        self.set_lights(fr)
        self.set_camera(fr["camera"])
        self.set_hand(fr.get("hand"))
        self.set_occluders(fr.get("occluders"))
        bpy.context.view_layer.update()
        sc.render.filepath = fr["out"] + ".png"
        bpy.ops.render.render(write_still=True)
        self.record(fr)

    def record(self, fr):
        """Every spot's pixel and the spots the hand (or a training scene's arm or cup) hides
        from the camera: a ray from the camera to the spot meets it first."""
        sc = self.scene
        dg = bpy.context.evaluated_depsgraph_get()
        w, h = fr["res"]
        cam_loc = self.cam.matrix_world.translation
        blockers = {o.name for o in self.hand_parts} | {o.name for o in self.occluders}
        pixels, covered = {}, []
        for spot, (x, y) in self.board["spots"].items():
            p = Vector((x, y, surface_z(self.shape, x, y) + 0.003))
            v = world_to_camera_view(sc, self.cam, p)
            pixels[spot] = [v.x * w - 0.5, (1 - v.y) * h - 0.5]
            if fr.get("hand") or self.occluders:
                d = p - cam_loc
                hit, loc, nrm, idx, obj, mat = sc.ray_cast(dg, cam_loc, d.normalized(), distance=d.length - 0.001)
                if hit and obj is not None and obj.name in blockers:
                    covered.append(spot)
        with open(fr["out"] + ".json", "w") as f:
            json.dump({"pixels": pixels, "covered": covered}, f)


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    jobs = json.load(open(argv[0]))
    boards, frames = jobs["boards"], jobs["frames"]
    scene, current = None, None
    t0 = time.time()
    for k, fr in enumerate(frames):
        if fr["board"] != current:
            scene = Scene(boards[fr["board"]], jobs.get("common", {}))
            current = fr["board"]
        t = time.time()
        scene.render(fr)
        print(f"PHOTOREAL frame {k + 1}/{len(frames)} {fr['out']} {time.time() - t:.1f} s "
              f"(total {time.time() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
