"""Whole games, start to finish, for every game the engine offers, plus a sanity check of each
game's starting position.

Each script is a literal list of steps. The short ones were worked out by hand; the longer ones
(Shax, Shax-8, some 3x3 games) were found with a small deterministic search and then checked
step by step against the rules; the comments say how each game ends and why.
"""

import pytest

import engine
from helpers import HOME, interleave, owners, play_all

# --------------------------------------------------------------------------- the game scripts
NINE_SHUT_IN = interleave(["g1", "g4", "d7", "a7", "a4", "b2", "f2", "f6", "b6"],
                          ["a1", "g7", "f4", "b4", "d1", "d2", "d6", "c4", "e4"])
NINE_DOWN_TO_TWO = [
    "a1", "b6", "g1", "d6", "g7", "f6", "xg7", "a7", "b2", "c3", "d2", "e3", "f2", "xe3",
    "e4", "c5", "g7", "d5", "c4", "e5", "xa7",
    "c3-d3", "d6-d7", "d3-c3", "d7-d6", "xa1",
    "c3-d3", "d6-d7", "d3-c3", "d7-d6", "xg1",
    "c3-d3", "d6-d7", "d3-c3", "d7-d6", "xg7",
    "c3-a1", "d6-d7", "a1-c3", "d7-d6", "xe4",  # player 1 flies at three, to no avail
]
NINE_REPETITION = interleave(["a1", "g1", "g7", "a7", "d2", "f4", "d6", "b4", "c3"],
                             ["d1", "g4", "d7", "a4", "b2", "f2", "f6", "b6", "e5"]) + \
    ["c3-d3", "e5-e4", "d3-c3", "e4-e5"] * 2
SEVEN = [
    "a1", "a7", "d1", "g7", "g1", "xa7", "a7", "b2", "b6", "f2", "f6", "a4", "g4", "d4", "f4",
    # d1<->d2 swaps between a1-d1-g1 and b2-d2-f2: each swap makes a mill whose breaking move
    # made another, so each one removes (ruling G-5).
    "d1-d2", "xg4", "f4-g4", "d2-d1", "xg4", "f6-f4", "d1-d2", "xf4", "b6-b4", "d2-d1", "xg7",
]
SIX = [
    "a1", "a4", "d1", "a7", "g1", "xa4", "b2", "g4", "f2", "g7", "xa7", "f6", "d7", "b6",
    "a1-a4", "b2-d2", "a4-a7", "xd2",  # a7-d7-g7 is new
    "f2-d2", "a7-a4", "f6-f4", "a4-a1", "xb6",  # a1-d1-g1 was not left on the previous move
]
FIVE = [
    "a1", "a4", "d1", "a7", "g1", "xa4", "b2", "g4", "f2", "g7", "xa7", "f6",
    "a1-a4", "b2-b4", "g7-d7", "f6-d6", "a4-a1", "xb4",
]
THREE_MEN = ["a1", "d4", "g1", "d1", "a7", "a4", "a1-g4", "a4-d7"]
MORABARABA = [
    "a1", "b2", "g1", "d2", "g7", "f2", "xa1", "a7", "f4", "a1", "f6", "xg7",
    "e4", "d6", "e5", "b6", "xa7", "d5", "b4", "xa1", "c4", "c3", "g7", "d3", "a7", "e3", "xa7",
    "a1", "d1", "xa1",
    "g7-d7", "b4-a4", "d7-g7", "a4-b4", "xg1",
    "g7-d7", "b4-a4", "d7-g7", "a4-b4", "xc4",
    "g7-d7", "b4-a4", "d7-g7", "a4-b4", "xd5",
    "g7-g1", "b4-a4", "g1-g7", "a4-b4", "xe4",
]
MORABARABA_TEN_MOVES = MORABARABA[:-5] + [
    "g7-g1", "b4-a4", "g1-g7", "a4-a7", "g7-g1", "a7-d7", "g1-g7", "d7-a7", "g7-g1", "a7-a4",
]
SHAX_FILL = interleave(["a1", "g1", "g7", "a7", "d2", "f4", "d6", "b4", "e5", "d5", "c5", "c4"],
                       ["c3", "d3", "e3", "d1", "g4", "d7", "a4", "b2", "f2", "f6", "b6", "e4"])
SHAX = SHAX_FILL + [
    "xd2", "xd3",  # player 2 made the first jare, so removes first, then moves first
    "b2-d2", "b4-b2", "a4-b4", "a7-a4", "d7-a7", "g7-d7", "xa7", "g4-g7", "d7-a7", "xd2",
    "g7-g4", "a7-d7", "xd1", "f2-d2", "d7-a7", "xe4", "e3-d3", "a7-d7", "xd2", "d3-e3",
    "d7-a7", "xg4", "c3-d3", "a7-d7", "xb4", "d3-d2", "d7-a7", "xb6", "e3-d3", "b2-b4", "xd3",
]
SHAX8 = interleave(["a1", "g1", "g7", "a7", "d2", "f4", "d6", "b4"],
                   ["d1", "g4", "d7", "a4", "b2", "f2", "f6", "b6"]) + [
    "xf4", "xd1",  # no jare while placing: player 2 removes first
    "f2-f4", "d2-d1", "xb2", "f4-f2", "d1-d2", "f6-f4", "d2-d1", "xa4", "f2-d2", "b4-a4", "xg4",
    "f4-g4", "a4-b4", "d2-f2", "b4-a4", "xd7", "g4-f4", "d6-d7", "xf4",
]
JARE = ["a1", "a7", "a4", "g1", "d1", "d4",  # player 1 is shut in and passes
        "g1-g4", "d1-g1", "d4-d7", "a1-d1", "g4-g7"]
TAPATAN = ["a1", "d1", "g1", "a4", "a7", "g4", "a1-d4"]
ACHI_SHUT_IN = ["g1", "d4", "g4", "g7", "a7", "a4", "d7", "d1"]
ACHI_LINE = ["a1", "d1", "g1", "a4", "d4", "a7", "g4", "d7", "d4-g7"]  # g1-g4-g7
TANT_FANT = ["a1-a4", "g7-g4", "g1-d4", "d7-g7", "d4-d7", "g4-g1", "d1-d4", "g7-g4", "d4-g7",
             "a7-d4", "a4-a7"]
TANT_FANT_P2 = ["a1-a4", "a7-d4", "d1-a1", "d4-d1", "a1-d4", "g7-g4", "d4-a7", "d7-d4", "a7-d7",
                "d4-a1", "g1-d4", "g4-g1"]
SHISIMA = ["a1-a4", "a7-d4", "a4-a7", "d4-a1", "d1-d4"]
SHISIMA_REPETITION = ["a1-a4", "g7-g4", "a4-a1", "g4-g7"] * 2
SABR = ["a1-a4", "a7*a1", "g1-g4", "g7*g1"]
SABR_JUMP_WIN = ["a1-a4", "a7-d4", "a4-a7", "g7-g4", "g1*g7"]

# ------------------------------------------------------------ the rest of the HTJB rulebook (issue 12)
# These were found by a small greedy search (take a winning step, else a capture, else any step)
# and then read through step by step; the comments say what decides each game.
SABA = ["f2", "b4", "a4", "d7", "a7", "f6", "d6", "d2", "g1", "d4", "b2", "b6", "g4", "f4",
        "b2-a1", "xb6",  # a1-a4-a7: the first pillar of the movement phase
        "d2-d1", "a7*g7", "xd1",  # a jump over d7 that stays on the board, landing in g1-g4-g7
        "d4-b6", "g7*a7", "xb4", "f4-d4", "a7*g7", "xf6", "d4-d2",
        "g7*a7", "xd7"]  # back and forth over d7: re-formed in two moves, each removes; five captured
SITA = ["d4", "g1", "g4", "f4", "g7", "b4", "b2", "d6", "d2", "a4", "b6", "d1",
        "d4-f2", "xa4", "g1*d4", "f2-g1", "xb4", "d4*a7", "g1-f2", "xd1", "a7-d7", "f2-g1", "xd7"]
TANO = ["f4", "d6", "g7", "a4", "a1", "a7", "f2", "b4", "d2", "b6",
        "a1-b2", "xb6", "d6-d4", "b2*f6", "xa4", "a7-a4", "f6*b2", "xd4"]  # jumps through the centre star
KURUKA_SABA = ["b6", "d2", "a4", "d6", "g4", "f6", "f4", "d7", "a7", "b4", "a1", "xb4", "g7", "b4", "d4",
               "b6*f2*b2",  # two jumps through the centre: d4, then d2
               "g7*g1",  # player 2 captures g4
               "a7*g7*d4*d7",  # d7, f6, d6: three men in one move
               "g1-d1", "a1*g1"]  # the last man, d1
KURUKA_SITA = ["g4", "b6", "d2", "b2", "f4", "b4", "xd2", "f2", "a7", "f6", "xa7", "d2", "d1", "a4",
               "d1*d4*a7*a1*d4*a4"]  # one chain of five jumps takes all five of player 2's men
KURUKA_TANO = ["f4", "a4", "d4", "b2", "f6", "d7", "f2", "xb2", "d1", "a7", "g4",
               "a7*g7*g1*a1*a7"]  # round the outer square: d7, g4, d1, a4 taken in one move
LAZIMA_SITA = KURUKA_SITA
LAZIMA_TANO = KURUKA_TANO
LAZIMA_SABA = ["f4", "a4", "d7", "d6", "b4", "b2", "f6", "g4", "f2", "xd6", "b6", "d1", "d2", "g7", "d6",
               "d1*d4*a1*a7",  # three men in one chain (a pillar could be formed, so jumping was a choice, G-8)
               "xb6", "g4*d4", "b4*f4", "xd6"]
KUBWA_TATU = ["g7", "b6", "d1", "d2", "f6", "a1", "f2", "b2", "g4", "a7", "d6", "d7",
              "d1-g1", "xb2", "d2-b2", "g4-f4", "xb6", "a1-a4", "f4-g4", "xa7", "b2-b4", "g4-f4", "xa4"]
MBILI_NA_NUSU = ["d7", "d2", "f2", "d6", "g4", "b6", "g1", "a7", "f6", "a4",
                 "d7-g7", "xd6", "b6-d6", "g4-f4", "xa7", "d6-d7", "f4-g4", "xd2"]
MBILI = ["b4", "b2", "d1", "f4", "a4", "d6", "g1", "g7", "a4-a1", "xf4", "d6-d7", "d1-d2", "b2*f2", "d2-d1", "xf2"]
MOJA_NA_NUSU = ["g4", "b4", "f2", "g7", "f6", "a7", "g4-f4"]  # f2-f4-f6, by a slide across the midpoint link
SITA_VYURA = ["d7", "d2", "b6", "f4", "b2", "g4", "a1", "d1", "f6", "d6", "a4", "b4",
              "d7-a7", "xb4", "g4-g1", "a4-b4", "xg1", "d2-f2", "b4-a4", "xd1", "f2-g1", "a4-b4", "xf4"]
TANO_VYURA = ["f2", "d2", "d6", "a4", "g1", "d7", "f4", "b4", "g4", "d1",
              "d6-f6", "xd1", "d2-b2", "f6-g7", "xb2", "d7-d6", "g7-f6", "xd6"]  # f6-g7: a corner link
ENE_VYURA = ["b4", "b2", "d1", "f4", "a4", "d6", "g1", "g7", "a4-a1"]
TATU_VYURA = ["g4", "b4", "f2", "g7", "f6", "a7", "g4-f4"]
SITA_NYOKA = ["b2", "f6", "g1", "f4", "a1", "b6", "a7", "g7", "f2", "d7", "d6", "g4",
              "b2-b4"]  # player 2's men f6 f4 b6 g7 d7 g4 have no open neighbour left
TANO_NYOKA = ["g7", "b6", "f4", "a7", "d1", "d7", "b4", "d6", "d2", "a4",
              "f4-f6", "a4-a1", "d2-b2", "a1-a4", "b2-a1"]  # player 2 is shut in
ENE_NYOKA = ["b4", "b2", "d1", "f4", "a4", "d6", "g1", "g7", "a4-a1"]
TATU_NYOKA = ["g4", "b4", "f2", "g7", "f6", "a7", "g4-f4"]
TATU_NDEGE = ["b4", "a1", "g4", "b2", "g1", "d1", "b4-g7"]  # b4 flies across the board to g7
KUNJING = ["f4", "f2", "g1", "a4", "a1", "e5", "c5", "e3", "c3", "b4", "d6", "a7",
           "c5-c4"]  # c3-c4-c5: player 1, the first of three, makes the first line
KUNJING_4 = ["d6", "a7", "d7", "b6", "g7", "g4", "b4", "d3", "f2", "d1", "e3", "a1", "e5", "f4", "a4", "c4",
             "f2*f6"]  # player 1 jumps player 2's f4 and completes the diagonal e5-f6-g7
TRESILLO_STAY = ["b4", "d2", "d7", "f2", "f6", "b2", "a1", "g1", "a7", "e3", "a4", "c3", "c4", "d3", "g7", "d1"]
TRESILLO_PLUCK = ["g4", "c3", "e5", "e4", "d6", "g1", "e3", "f6", "a1", "b6", "f2", "a7", "d1", "c5", "xf2",
                  "g7", "c4", "xd6", "d6", "d5", "f2", "d2", "d7", "a4", "f4", "d3"]
TRESILLO_CONQUER = ["d2", "f2", "a4", "b6", "c3", "d1", "b2", "e4", "g1", "c4", "b4", "e5", "c5", "f6", "g4", "a7",
                    "d6", "a1", "f4", "d5", "d3", "d7", "e3", "xf6", "f6",
                    "g4-g7"]  # player 2's chips are all shut in: inhibited, player 2 loses
TRESILLO_RAPIDO = ["f6", "b6", "d1", "timeout", "d2", "e5", "e4", "c3", "timeout", "f4", "c4", "a7", "b4", "g7",
                   "d3", "xa7", "a7", "g4", "g1", "f2", "a4", "b2", "xg7", "d5", "a1", "d6", "c5", "e3"]

# Stack, one round to a target of 20: black confiscates five stacks and, when every chip is played
# and black tops every stack, holds 20 chips (ruling T-4).
STACK_ROUND = ["g1", "b4", "e5", "c4", "c4", "b6", "d3", "g1", "g4", "d3", "e4", "d1", "a7", "b2", "xe4", "b4", "a7",
               "d2", "a1", "xd2", "g1", "f2", "d7", "e5", "d3", "b4", "xd7", "c4-c3", "c4-c3", "xg1", "g4-g7", "a4",
               "xg7", "d3-c3", "b2-d2", "xc3", "e4"]
TABLEAUX = ["3"] * 8 + ["1"]  # player 1 is left the last chip
TABLEAUX_ADVANCED = [
    "chips=25", "draw=9", "9", "9", "6", "1",  # player 2 takes the last chip: player 1 scores 15
    "next-round", "chips=48", "draw=9", "9", "9", "9", "9", "9", "3",  # player 1 takes the last: player 2 scores 27
    "next-round", "chips=25", "draw=3", "timeout",  # player 1 runs out of time: player 2 scores 25 more
]
# The two-grid gem game (GG-1 to GG-3): games found by seeded random play that favours captures,
# each ending when blue is left with one untrapped gem.
TWIN_GRIDS_11 = [
    "r:a4-r:e4", "b:f3-b:d3", "r:a3-r:d3", "b:b6-b:b3", "r:a5-r:a4", "b:b3-b:a3", "r:b1-r:b3", "b:f2-b:e2",
    "r:a4-r:d4", "b:f1-b:c1", "r:d3-r:d2", "b:c6-b:c4", "r:c1-r:c5", "b:a6-b:a1", "r:b3-r:b2", "b:f5-b:b5",
    "r:a6-r:b6", "b:e2-b:e1", "r:d2-r:e2", "b:e6-b:e1", "r:e2-r:f2", "b:d6-b:d4", "r:d4-r:d5", "b:f4-b:c4",
    "r:e4-r:c4",
]
TWIN_GRIDS_15 = [
    "r:d1-r:d6", "b:h6-b:a6", "r:d6-r:b6", "b:h2-b:d2", "r:f1-r:f7", "b:h1-b:d1", "r:a2-r:d2", "b:c8-b:c1",
    "r:e1-r:d1", "b:h7-b:c7", "r:d1-r:d2", "b:f8-b:f5", "r:a3-r:e3", "b:c7-b:c1", "r:a5-r:d5", "b:d8-b:d2",
    "r:d5-r:d2", "b:f5-b:b5", "r:c1-r:c5", "b:a8-b:a6", "r:a7-r:b7", "b:h5-b:e5", "r:d2-r:b2", "b:e8-b:e7",
    "r:a8-r:e8", "b:g8-b:g1", "r:b2-r:h2", "b:h4-b:f4", "r:a4-r:d4", "b:b8-b:b5", "r:a1-r:a2", "b:f4-b:f1",
    "r:h2-r:f2", "b:b5-b:c5", "r:d4-r:d6", "b:e5-b:e2", "r:c5-r:c4", "b:h3-b:d3", "r:e8-r:e3", "b:h8-b:e8",
    "r:d6-r:d4",
]

# (game, options, steps, winner or None for a draw, words one of which the reason must contain)
COMPLETE = [
    ("nine-mens-morris", {}, NINE_SHUT_IN, 2, ("move",)),
    ("nine-mens-morris", {}, NINE_DOWN_TO_TWO, 2, ("2", "two")),
    ("nine-mens-morris", {}, NINE_REPETITION, None, ("third", "repet", "three")),
    ("seven-mens-morris", {}, SEVEN, 1, ("2", "two")),
    ("six-mens-morris", {}, SIX, 1, ("2", "two")),
    ("five-mens-morris", {}, FIVE, 1, ("2", "two")),
    ("three-mens-morris", {}, THREE_MEN, 2, ("line", "row")),
    ("morabaraba", {}, MORABARABA, 2, ("2", "two")),
    ("morabaraba", {}, MORABARABA_TEN_MOVES, None, ("ten", "10")),
    ("shax", {}, SHAX, 1, ("2", "two")),
    ("shax-8", {}, SHAX8, 1, ("2", "two")),
    ("jare", {}, JARE, 2, ("line", "row")),
    ("tapatan", {}, TAPATAN, 1, ("line", "row")),
    ("achi", {}, ACHI_SHUT_IN, 2, ("move",)),
    ("achi", {}, ACHI_LINE, 1, ("line", "row")),
    ("tant-fant", {}, TANT_FANT, 1, ("line", "row")),
    ("tant-fant", {}, TANT_FANT_P2, 2, ("line", "row")),
    ("shisima", {}, SHISIMA, 1, ("line", "row")),
    ("shisima", {}, SHISIMA_REPETITION, None, ("third", "repet", "three")),
    ("sabr", {}, SABR, 2, ("line", "row")),
    ("sabr", {}, SABR_JUMP_WIN, 1, ("line", "row")),
    ("saba", {}, SABA, 1, ("captured 5",)),
    ("sita", {}, SITA, 1, ("captured 4",)),
    ("tano", {}, TANO, 1, ("captured 3",)),
    ("kuruka-saba", {}, KURUKA_SABA, 1, ("0 pieces",)),
    ("kuruka-sita", {}, KURUKA_SITA, 1, ("0 pieces",)),
    ("kuruka-tano", {}, KURUKA_TANO, 1, ("0 pieces",)),
    ("lazima-saba", {}, LAZIMA_SABA, 1, ("0 pieces",)),
    ("lazima-sita", {}, LAZIMA_SITA, 1, ("0 pieces",)),
    ("lazima-tano", {}, LAZIMA_TANO, 1, ("0 pieces",)),
    ("kubwa-tatu", {}, KUBWA_TATU, 1, ("captured 4",)),
    ("mbili-na-nusu", {}, MBILI_NA_NUSU, 1, ("captured 3",)),
    ("mbili", {}, MBILI, 1, ("captured 2",)),
    ("moja-na-nusu", {}, MOJA_NA_NUSU, 1, ("line",)),
    ("sita-vyura", {}, SITA_VYURA, 1, ("captured 4",)),
    ("tano-vyura", {}, TANO_VYURA, 1, ("captured 3",)),
    ("ene-vyura", {}, ENE_VYURA, 1, ("line",)),
    ("tatu-vyura", {}, TATU_VYURA, 1, ("line",)),
    ("sita-nyoka", {}, SITA_NYOKA, 1, ("cannot move",)),
    ("tano-nyoka", {}, TANO_NYOKA, 1, ("cannot move",)),
    ("ene-nyoka", {}, ENE_NYOKA, 1, ("line",)),
    ("tatu-nyoka", {}, TATU_NYOKA, 1, ("line",)),
    ("tatu-ndege", {}, TATU_NDEGE, 1, ("line",)),
    ("kunjing", {}, KUNJING, 1, ("line",)),
    ("kunjing", {"players": 4}, KUNJING_4, 1, ("line",)),
    ("tresillo-stay", {}, TRESILLO_STAY, 2, ("no chip left",)),
    ("tresillo-pluck", {}, TRESILLO_PLUCK, 2, ("no chip left",)),
    ("tresillo-conquer", {}, TRESILLO_CONQUER, 1, ("cannot move",)),
    ("tresillo-rapido", {}, TRESILLO_RAPIDO, 1, ("no chip left",)),
    ("stack", {"target": 20}, STACK_ROUND, 2, ("reached 20",)),
    ("tableaux", {}, TABLEAUX, 2, ("last chip",)),
    ("twin-grids", {}, TWIN_GRIDS_11, 1, ("one untrapped gem",)),
    ("twin-grids", {"gems": 15}, TWIN_GRIDS_15, 1, ("one untrapped gem",)),
    ("tableaux", {"advanced": True}, TABLEAUX_ADVANCED, 2, ("reached 52",)),
    # no placement in Shisima, so every step counts towards the cap (ruling G-3)
    ("shisima", {"move_cap": 6}, ["a1-a4", "g7-g4", "a4-a1", "g4-g7", "a1-a4", "g7-g4"], None,
     ("cap", "6", "moves")),
]


def _id(case):
    game, options, steps, winner, _ = case
    end = "draw" if winner is None else f"p{winner}"
    return f"{game}-{end}-{len(steps)}"


@pytest.mark.parametrize("case", COMPLETE, ids=[_id(c) for c in COMPLETE])
def test_complete_game(case):
    game, options, steps, winner, words = case
    s = play_all(game, steps[:-1], **options)
    assert s.result is None, f"the game ended early: {s.result}"
    s = s.play(steps[-1])
    assert s.result is not None, "the last step should end the game"
    assert s.phase == "over" and s.legal_steps() == ()
    if winner is None:
        assert s.result.draw and s.result.winner is None
    else:
        assert s.result.winner == winner and not s.result.draw
    reason = s.result.reason.lower()
    assert any(w in reason for w in words), reason
    for text in steps[-1:] + ["a1", "xa1", "a1-a4"]:  # nothing more may be played
        assert s.why_illegal(text)
        with pytest.raises(engine.IllegalStep):
            s.play(text)


MILL_GAMES = [n for n in engine.names() if engine.spec(n).family == "mills"]


def test_every_game_has_a_complete_game():
    covered = {case[0] for case in COMPLETE}
    assert set(MILL_GAMES) <= covered, set(MILL_GAMES) - covered
    # Brainmaster's and Thinking In Circles' whole games are played out in their own files
    # (tests/test_rules_brainmaster.py, tests/test_rules_circles.py): secrets and chance draws
    # do not fit this file's scripted step lists.
    own_files = {"brainmaster", "circles"}
    htjb = [n for n in engine.names() if not n.startswith("brain-hanky") and engine.spec(n).family not in own_files]
    assert set(htjb) <= covered, set(htjb) - covered


def test_the_catalogue_lists_the_rulebook_games():
    expected = {"nine-mens-morris", "seven-mens-morris", "six-mens-morris", "five-mens-morris",
                "three-mens-morris", "morabaraba", "shax", "shax-8", "jare", "tapatan", "achi",
                "tant-fant", "shisima", "sabr"}
    assert expected <= set(engine.names())


# ------------------------------------------------------------------------------ start states
MEN = {"nine-mens-morris": 9, "seven-mens-morris": 7, "six-mens-morris": 6, "five-mens-morris": 5,
       "three-mens-morris": 3, "morabaraba": 12, "shax": 12, "shax-8": 8, "jare": 3, "tapatan": 3,
       "achi": 4,
       # the rest of the HTJB rulebook: men per player as each page gives them
       "saba": 7, "kuruka-saba": 7, "lazima-saba": 7, "sita": 6, "kuruka-sita": 6, "lazima-sita": 6,
       "tano": 5, "kuruka-tano": 5, "lazima-tano": 5, "kubwa-tatu": 6, "mbili-na-nusu": 5, "mbili": 4,
       "moja-na-nusu": 3, "sita-vyura": 6, "tano-vyura": 5, "ene-vyura": 4, "tatu-vyura": 3, "sita-nyoka": 6,
       "tano-nyoka": 5, "ene-nyoka": 4, "tatu-nyoka": 3, "tatu-ndege": 3, "kunjing": 4, "tresillo-stay": 12,
       "tresillo-pluck": 12, "tresillo-conquer": 12, "tresillo-rapido": 12}
POINTS = {"nine-mens-morris": 24, "seven-mens-morris": 17, "six-mens-morris": 16, "five-mens-morris": 16,
          "three-mens-morris": 9, "morabaraba": 24, "shax": 24, "shax-8": 16, "jare": 9, "tapatan": 9,
          "achi": 9}
POINTS.update({n: 17 for n in ("saba", "sita", "tano")})
POINTS.update({f"{form}-{n}": 17 for form in ("kuruka", "lazima") for n in ("saba", "sita", "tano")})
POINTS.update({n: 16 for n in ("kubwa-tatu", "mbili-na-nusu", "mbili", "moja-na-nusu", "tatu-ndege")})
POINTS.update({f"{n}-{kind}": 16 for n in ("sita", "tano", "ene", "tatu") for kind in ("vyura", "nyoka")})
POINTS.update({n: 24 for n in ("kunjing", "tresillo-stay", "tresillo-pluck", "tresillo-conquer", "tresillo-rapido")})
FIXED_START = {
    "tant-fant": {p: 1 for p in HOME[1]} | {p: 2 for p in HOME[2]},
    "shisima": {p: 1 for p in HOME[1]} | {p: 2 for p in HOME[2]},
    "sabr": {"a1": 1, "d1": 2, "g1": 1, "a7": 2, "d7": 1, "g7": 2},
}


@pytest.mark.parametrize("name", MILL_GAMES)
def test_start_state_is_sane(name):
    s = engine.load(name).new()
    assert s.result is None and s.to_move == 1
    assert s.captured_by(1) == s.captured_by(2) == 0
    assert engine.load(name).options["move_cap"] == 200  # ruling G-3 default
    if name in FIXED_START:
        assert s.phase == "movement"
        assert owners(s) == FIXED_START[name]
        assert s.in_hand(1) == s.in_hand(2) == 0
        assert all("-" in str(m) or "*" in str(m) for m in s.legal_steps())
        assert all(owners(s)[str(m).replace("*", "-").split("-")[0]] == 1 for m in s.legal_steps())
    else:
        assert name in MEN, f"no rulebook numbers written down for {name}"
        assert s.phase == "placement" and owners(s) == {}
        assert s.in_hand(1) == s.in_hand(2) == MEN[name]
        assert len(s.legal_steps()) == POINTS[name]  # any empty point may take the first man
        assert all(len(str(m)) == 2 for m in s.legal_steps())


@pytest.mark.parametrize("name", MILL_GAMES)
def test_start_is_fresh_each_time(name):
    g = engine.load(name)
    a, b = g.new(), g.new()
    first = a.legal_steps()[0]
    a.play(first)
    assert owners(b) == owners(g.new()) and b.to_move == 1


def test_unknown_game_and_bad_options():
    with pytest.raises(engine.UnknownGame):
        engine.load("eleven-mens-morris")
    with pytest.raises(engine.BadOption):
        engine.load("nine-mens-morris", move_cap=-1)
    with pytest.raises(engine.BadOption):
        engine.load("tapatan", move_cap="lots")
    with pytest.raises(engine.BadOption):
        engine.load("achi", no_such_option=True)
    assert engine.load("achi", move_cap=0).new().result is None  # 0 switches the cap off
