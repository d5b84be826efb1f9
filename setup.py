"""Build hook for the optional C kernel; everything else is declared in pyproject.toml.

``optional=True``: if the machine has no C compiler (or the build fails for any reason) the
install still succeeds and the engine runs its pure-Python reference code instead.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.rules._millkernel",
            ["engine/rules/_millkernel.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
