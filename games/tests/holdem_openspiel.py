"""The differential test's other half (games/tests/holdem.rs, HE-20): hands that cardroom's
engine played, one JSON object a line on stdin, replayed in OpenSpiel's ``universal_poker``
(the ACPC dealer) with the same deal. At every decision the legal actions must agree, and at the
end the payoffs, but where docs/rules/holdem.md (HE-20) documents a difference: after a short
all-in raise only the fold and the call are compared (the raises differ by HE-11), and each pot
split with odd chips may move a seat's payoff by less than a chip (HE-15).

Prints one JSON object: the hands and decisions compared, how often each documented difference
came up, and every other difference (the Rust test asserts there is none).
"""

from __future__ import annotations

import json
import sys

import pyspiel  # type: ignore[import-not-found,unused-ignore]

FOLD, CALL = 0, 1
# universal_poker's FCPA abstraction names a limit raise with this action.
LIMIT_RAISE = 2


def game_for(hand: dict) -> pyspiel.Game:
    limit = hand["betting"] == "limit"
    params = {
        "betting": hand["betting"],
        "numPlayers": len(hand["stacks"]),
        "numRounds": 4,
        "blind": " ".join(map(str, hand["blinds"])),
        "firstPlayer": " ".join(map(str, hand["first_player"])),
        "numSuits": 4,
        "numRanks": 13,
        "numHoleCards": 2,
        "numBoardCards": "0 3 1 1",
        "stack": " ".join(map(str, hand["stacks"])),
        # The full game names every raise size; limit games have one raise, named in FCPA.
        "bettingAbstraction": "fcpa" if limit else "fullgame",
    }
    if limit:
        params["raiseSize"] = " ".join(map(str, hand["raise_size"]))
        params["maxRaises"] = " ".join(map(str, hand["max_raises"]))
    return pyspiel.load_game("universal_poker", params)


def replay(number: int, hand: dict, counts: dict, differences: list) -> None:
    limit = hand["betting"] == "limit"
    state = game_for(hand).new_initial_state()
    deal = list(hand["deal"])
    decisions = iter(hand["decisions"])

    def differ(what: str, **details: object) -> None:
        differences.append({"hand": number, "what": what, **details, "table": hand})

    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(deal.pop(0))
            continue
        decision = next(decisions, None)
        if decision is None:
            return differ("OpenSpiel asks for a decision cardroom did not have")
        counts["decisions"] += 1
        legal = state.legal_actions()
        if state.current_player() != decision["player"]:
            return differ("another player acts", openspiel=state.current_player(), cardroom=decision)
        theirs_raise = [a for a in legal if a > CALL]
        ours = {"fold": decision["fold"], "call": decision["call"]}
        theirs = {"fold": FOLD in legal, "call": CALL in legal}
        if decision["documented"] is None:
            if limit:
                ours["raise"] = decision["raise"] is not None
                theirs["raise"] = LIMIT_RAISE in legal
            else:
                ours["raise"] = decision["raise"] and list(decision["raise"])
                theirs["raise"] = [theirs_raise[0], theirs_raise[-1]] if theirs_raise else None
                if theirs_raise and len(theirs_raise) != theirs_raise[-1] - theirs_raise[0] + 1:
                    differ("OpenSpiel's raise sizes have gaps", legal=legal)
        else:
            counts[decision["documented"]] = counts.get(decision["documented"], 0) + 1
            # HE-11 only takes raises away, and only from below: cardroom's sizes, if any, are
            # OpenSpiel's from cardroom's smallest up to the same all in.
            ours_raise = decision["raise"]
            if ours_raise and not limit:
                low, high = ours_raise
                if not theirs_raise or theirs_raise[0] > low or theirs_raise[-1] != high:
                    differ("raises beyond HE-11", cardroom=ours_raise, openspiel=legal)
            elif ours_raise and LIMIT_RAISE not in legal:
                differ("a limit raise beyond HE-11", decision=decision, openspiel=legal)
        if ours != theirs:
            return differ("legal actions", cardroom=ours, openspiel=theirs, decision=decision)
        action = decision["action"]
        if limit and action > CALL:
            action = LIMIT_RAISE
        if action not in legal:
            return differ("cardroom's action is not legal in OpenSpiel", action=action, legal=legal)
        state.apply_action(action)
    if next(decisions, None) is not None:
        return differ("the hand ended in OpenSpiel before cardroom's did")
    returns = state.returns()
    if hand["odd_pots"]:
        counts["odd_chips"] += 1
        close = all(abs(a - b) < hand["odd_pots"] for a, b in zip(returns, hand["net"]))
        if not close:
            differ("payoffs, beyond the odd chips", openspiel=returns, cardroom=hand["net"])
    elif [round(r) for r in returns] != hand["net"] or any(r != round(r) for r in returns):
        differ("payoffs", openspiel=returns, cardroom=hand["net"])


def main() -> None:
    counts = {"hands": 0, "decisions": 0, "odd_chips": 0}
    differences: list = []
    for number, line in enumerate(sys.stdin):
        counts["hands"] += 1
        hand = json.loads(line)
        try:
            replay(number, hand, counts, differences)
        except Exception as error:  # noqa: BLE001 (OpenSpiel refusing a table is a difference)
            differences.append({"hand": number, "what": f"OpenSpiel failed: {error}", "table": hand})
    json.dump({**counts, "differences": differences[:5]}, sys.stdout)


if __name__ == "__main__":
    main()
