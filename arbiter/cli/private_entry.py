"""Hidden entry of a secret step on the Pi's own terminal, when no private page takes it.

When ``state.private_to`` asks a player for a secret step (a code, a goal, a choice of beads),
``arbiter play`` names that player, asks the others to look away, and reads the step with the
echo off (``getpass``). The step goes to ``Session.enter_private``, which referees, journals
(sealed) and announces it by its public text only. An illegal entry is refused by its public
text ("code: ..."), never repeated. Nothing typed is printed, logged or kept.

A player may type the whole step (``code=RBGY``) or only what follows the public text's ``=``
(``RBGY``) when every secret step due now shares one public text: the step is then tried as
``PUBLIC=TYPED``, which is how the families write their secret steps (``engine.words``).
"""

from __future__ import annotations

import getpass
from collections.abc import Callable

__all__ = ["ask_private", "player_words"]


def player_words(rules, player: int) -> str:
    """The player as the table says it: "player 1 (white)", or their colour."""
    side = getattr(rules, "side_name", None)
    if callable(side):
        return side(player)
    return rules.colour_name(rules.colour_of(player))


def ask_private(session, say: Callable[[str], None], read: Callable[[str], str] = getpass.getpass,
                tries: int = 5) -> bool:
    """Ask the player ``state.private_to`` names for their secret step; True once one is entered.

    ``say`` prints a line everybody may see; ``read(prompt)`` reads a line with the echo off.
    Gives up after ``tries`` refused entries (False: the loop asks again later) so a player who
    walked away does not hold the terminal for ever. EOFError and KeyboardInterrupt pass on (the
    players stopping the game)."""
    st = session.state
    player = st.private_to
    if player is None or session.over:
        return False
    screen = getattr(session, "screen", None)
    live = getattr(screen, "live", None)
    if live is not None:  # one live display at a time: the prompt needs the terminal
        live.stop()
        screen.live = None
    rules = st.rules
    kinds = session.secret_kinds()
    what = " or ".join(kinds) if kinds else "secret step"
    who = player_words(rules, player)
    say(f"{who.capitalize()}: your secret {what}, typed unseen. Everyone else, please look away.")
    for _ in range(tries):
        typed = read(f"{who.capitalize()}, type your {what} (hidden) and press Enter: ").strip()
        if not typed:
            say("Nothing typed; try again.")
            continue
        refused = session.enter_typed_secret(typed)
        if refused is None:
            say(f"Thank you, {who}: your {what} is in. Everyone may look again.")
            return True
        say(f"Refused: {refused}. Type it again.")
    say(f"No {what} accepted; I will ask {who} again.")
    return False

