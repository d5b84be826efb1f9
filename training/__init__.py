"""Training the learned spot reader (issue 31): data, the network, episodes, export.

Never imported by ``arbiter``, ``vision`` or ``engine``: it needs the ``train`` extra (PyTorch,
onnx). The play-time side is ``vision.spotnet``. See docs/learned-reader.md.
"""
