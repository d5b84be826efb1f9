"""The simulated table: boards, readers and players that stand in for the real ones.

The same program runs with no hardware at all, and this is the hardware it runs with. Every
reader here implements ``engine.reader.Reader``, the protocol the real camera and sensor board
implement, so the session cannot tell a simulated table from a real one:

- ``readers``: perfect readers of engine positions (``SimReader``, ``colour_reader``,
  ``occupancy_reader``), for tests of the referee's logic and the benchmark;
- ``physical``: the board on the table that players act on (``PhysicalBoard``), watched by a
  simulated camera whose frames the real vision code reads (``SimCamera``) or by a reed-switch
  grid (``SensorGrid``);
- ``sensor``: a virtual sensor board under that board, read over a pseudo-terminal by the real
  serial host driver (``SensorRig``, ``LockstepReader``, ``serial_table``);
- ``scenario``: the players: a small language of hand actions, the ``Table`` that runs them in
  simulated time, and the ``Player`` who plays a game record (or random moves) with them;
- ``demo``: ``arbiter demo``, a whole refereed game at the simulated table.

Nothing is imported here, so ``arbiter.sim.readers`` loads without the camera simulator.
"""
