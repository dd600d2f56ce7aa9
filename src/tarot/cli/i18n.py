"""The command line's words in French and English: one dict per language, looked up by key.

``text(lang, key, **fields)`` formats a message; ``default_lang()`` reads the locale
(LC_ALL, then LC_MESSAGES, then LANG: a value starting with ``fr`` means French).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from enum import StrEnum
from typing import Final


class Lang(StrEnum):
    FR = "fr"
    EN = "en"


_EN: Final[dict[str, str]] = {
    # contracts (R7) and poignée sizes (R14)
    "prise": "Prise",
    "garde": "Garde",
    "garde_sans": "Garde sans",
    "garde_contre": "Garde contre",
    "simple": "simple",
    "double": "double",
    "triple": "triple",
    # sides and roles
    "attack": "attack",
    "defence": "defence",
    "role_taker": "taker",
    "role_partner": "partner",
    "role_defender": "defender",
    "alone": "alone",
    "none": "—",
    # deal table
    "deal": "Deal",
    "seat": "Seat {seat}",
    "taker": "Taker",
    "contract": "Contract",
    "partner": "Partner",
    "oudlers": "Oudlers",
    "points": "Points",
    "target": "Target",
    "result": "Result",
    "made_by": "made by {margin}",
    "lost_by": "lost by {margin}",
    "base": "Base",
    "petit_au_bout": "Petit au bout",
    "poignee": "Poignée",
    "chelem": "Chelem",
    "chelem_announced_made": "announced and made",
    "chelem_announced_lost": "announced, not made",
    "chelem_made": "made, not announced",
    "chelem_defence": "won by the defence",
    "per_defender": "Per defender (S)",
    "score": "Score",
    "total": "Total",
    "annulled": "Deal annulled: {why}",
    "petit_sec": "petit sec (seat {seat})",
    "all_pass": "everybody passed",
    "sheet_line": "{contract} by seat {taker}{partner}, {oudlers}, {points} points, {result}",
    "sheet_partner": " with seat {seat}",
    "sheet_alone": " alone",
    "sheet_oudler": "{n} oudler",
    "sheet_oudlers": "{n} oudlers",
    # tarot play (the terminal game)
    "you": "You",
    "pass": "Pass",
    "yes": "yes",
    "no": "no",
    "trumps": "Trumps",
    "your_hand": "Your hand ({n} cards)",
    "your_hand_one": "Your hand ({n} card)",
    "player": "Player",
    "final_ranking": "Final ranking",
    "welcome": "French Tarot: you are seat 0, against {bots} bots; {deals} deal(s) to play.",
    "commands_hint": "Type the number of a choice or a card code (KH, 10S, T21, EX). "
                     "At any prompt: ? help, last, hand, sheet, hint, quit.",
    "help": "Choices: type the number shown, or the name (pass, prise, garde, garde sans, garde contre) "
            "or card code: rank then suit, 1…10 J N(knight) Q K with S♠ H♥ D♦ C♣ (KH, 10S, NC), "
            "trumps T1…T21, the Excuse EX (★). Case does not matter. Several cards: separate them "
            "with spaces. Commands: ? help · last (previous trick) · hand · sheet (score sheet) · "
            "hint (what the expert would play, and why) · quit.",
    "goodbye": "Goodbye!",
    "goodbye_interrupted": "Game interrupted. Goodbye!",
    "deal_header": "Deal {n} of {total} · dealer: {dealer}",
    "redeal": " (redeal)",
    "deal_result": "Result of the deal",
    "score_sheet": "Score sheet",
    "no_sheet_yet": "No deal has finished yet.",
    "bot_failed": "({who}'s bot failed ({kind}); a legal action was played in its place)",
    "bids": "{who}: {bid}",
    "takes": "{who} takes: {contract}.",
    "you_take": "You take: {contract}.",
    "chien_hidden": "The chien stays face down.",
    "chien_shown": "The chien: ",
    "calls": "{who} calls ",
    "you_call": "You call ",
    "you_are_partner": "You hold the called card: you are {taker}'s partner (only you know it).",
    "you_play_alone": "You play alone (the called card is yours or in the chien).",
    "plays_alone": "{taker} plays alone.",
    "partner_known": "{who} is {taker}'s partner.",
    "your_partner": "{who} is your partner.",
    "your_ecart": "Your écart: ",
    "bot_ecart": "{who} makes the écart.",
    "ecart_trumps": "Trumps put in the écart (shown to all): ",
    "announces_chelem": "{who} announces a chelem!",
    "you_announce_chelem": "You announce a chelem!",
    "shows_poignee": "{who} shows a poignée ({size}): ",
    "you_show_poignee": "You show a poignée ({size}): ",
    "trick_n": "Trick {n}:",
    "wins_trick": "{who} wins the trick",
    "you_win_trick": "you win the trick",
    "you_lead": "you lead.",
    "last_trick": "Previous trick: ",
    "no_trick_yet": "No trick has been played yet in this deal.",
    "refused": "Not allowed: {reason}",
    "not_understood": "Not understood: {line!r}. Type a number from the list, or ? for help.",
    "type_choice": "Type a number from 1 to {n} (or a name or card code; ? for help).",
    "unknown_card": "{token!r} is not a card: use a code like KH, 10S, NC, T21, EX "
                    "(or a number from the list).",
    "out_of_range": "There is no choice with that number: choose from 1 to {n}.",
    "choose_number": "Type a number from 1 to {n}.",
    "duplicate_cards": "The same card is typed twice.",
    "card_count": "Type exactly {n} cards (you typed {got}).",
    "yes_or_no": "Answer 1 (no) or 2 (yes).",
    "prompt_bid": "Your bid:",
    "prompt_call": "Call a card:",
    "ecart_intro": "Make your écart: {n} cards, no king, no oudler, no trump. The cards you may discard:",
    "ecart_intro_trumps": "Make your écart: {n} cards; you must put in all these plain cards and {trumps} "
                          "trump(s) (no king, no oudler). The cards you may discard:",
    "prompt_ecart": "Your écart ({n} cards: codes or numbers):",
    "chelem_question": "Announce a chelem (win every trick)?",
    "prompt_chelem": "Chelem:",
    "poignee_question": "You may show a poignée before your first card:",
    "poignee_size": "{size} ({n} trumps)",
    "prompt_poignee": "Poignée:",
    "poignee_proposal": "Proposed ({n} cards): ",
    "poignee_how": "Press Enter (or y) to show these, type {n} cards (codes or numbers below), "
                   "or n to show none:",
    "prompt_poignee_cards": "Cards to show ({n}):",
    "prompt_card": "Your card:",
    # tarot ladder
    "ladder_title": "Bots' ladder at {players} players ({games} game(s) of {deals} deal(s), seed {seed})",
    "ladder_caption": "{db} · {seconds} s on {jobs} process(es)",
    "ladder_rank": "Rank",
    "ladder_bot": "Bot",
    "ladder_ordinal": "Ordinal (μ − 3σ)",
    "ladder_games": "Games",
    "ladder_shard_saved": "Shard {shard}: {games} of the run's {total} game(s) played (seed {seed}), "
                          "saved to {out}; rate the shards with: tarot ladder merge FILES --db URL",
    # the hint command (terminal_hint.py)
    "hint_expert": "Expert: ",
    "hint_why_search": ", the best of your cards over {n} sampled deals (on average {mean} for you)",
    "hint_why_bidding": ", the best bid over {n} sampled deals (on average {mean} for you)",
    "hint_why_ecart": ", chosen among the écarts tried over {n} sampled deals (on average {mean} for you)",
    "hint_why_poignee": ": over {n} sampled deals, its prime adds {mean} for you on average",
    "hint_why_rules": ", by the club player's rules",
    "hint_why_only": ", the only possible move",
    "hint_next": "; next best ",
    "hint_next_mean": ": {mean}",
    "hint_hide_poignee": "Don't show your poignée: its prime would mostly go to the other side.",
    "hint_call": "call",
    "hint_ecart_move": "put aside",
    "hint_chelem": "announce a chelem",
    "hint_no_chelem": "no chelem",
    "hint_poignee_move": "show a poignée of {n} trumps",
    "hint_thinking": "The expert is thinking…",
    # tarot duplicate (R26)
    "dup_seat": "Seat {seat}",
    "dup_etui": "Board (étui) {n}",
    "dup_set": "Duplicate set {seed}: {players} players, {deals} boards",
    "dup_dealer": "Dealer: seat {seat}",
    "dup_first": "first to bid: seat {seat}",
    "dup_seed": "Seed {seed}",
    "dup_cards": "{n} cards",
    "dup_chien": "Chien",
    "dup_excuse": "Excuse",
    "dup_rank_letters": "J N Q K",
    "dup_seed_drawn": "Seed: {seed} (drawn at random: --seed {seed} deals the same set again)",
    "dup_seed_given": "Seed: {seed}",
    "dup_written": "{deals} boards for {players} players written to {out}: {first} … {last} (deal records), "
                   "sheets.html (one printable page per board), index.json",
    "dup_ranking": "Duplicate ranking (R26) · players: {players} · deals: {deals} · tables: {tables}",
    "dup_rank": "Rank",
    "dup_percent": "%",
    "dup_played": "Deals",
    "dup_attack": "Attack",
    "dup_defence": "Defence",
    "dup_deal": "Deal {n}",
    "dup_table": "Table",
    "dup_result": "Result",
    # tarot review (cli/review.py)
    "review_title": "Deal {n}: review by the expert ({budget})",
    "review_budget_playouts": "{n} playouts a decision",
    "review_budget_think": "{s} s a decision",
    "review_seat": "Seat",
    "review_decisions": "Decisions",
    "review_mean_loss": "Mean loss",
    "review_best": "best",
    "review_good": "good",
    "review_inaccuracy": "?!",
    "review_mistake": "?",
    "review_blunder": "??",
    "review_legend": "?! an inaccuracy (a loss of 5 to 20 points), ? a mistake (20 to 50), "
                     "?? a blunder (50 or more)",
    "review_worst": "Costliest moves",
    "review_line": "seat {seat}, {where}: played {played}, best {best} ({loss} points)",
    "review_trick": "trick {n}",
    "review_bid": "bidding",
    "review_call": "call",
    "review_ecart": "écart",
    "review_chelem": "chelem",
    "review_poignee": "poignée",
    "review_no_poignee": "no poignée",
    "review_poignee_of": "poignée of {n} trumps",
    "review_chelem_yes": "chelem announced",
    "review_chelem_no": "no chelem",
    "review_calls": "calls {card}",
    "review_par": "Par (every card seen) for seat {taker}'s contracts: {parts}; the deal scored {actual}.",
    "review_nobody": "Nobody took: no par.",
    "review_none": "No decision to review (every move was forced).",
}

_FR: Final[dict[str, str]] = {
    "prise": "Prise",
    "garde": "Garde",
    "garde_sans": "Garde sans",
    "garde_contre": "Garde contre",
    "simple": "simple",
    "double": "double",
    "triple": "triple",
    "attack": "attaque",
    "defence": "défense",
    "role_taker": "preneur",
    "role_partner": "partenaire",
    "role_defender": "défenseur",
    "alone": "seul",
    "none": "—",
    "deal": "Donne",
    "seat": "Joueur {seat}",
    "taker": "Preneur",
    "contract": "Contrat",
    "partner": "Partenaire",
    "oudlers": "Bouts",
    "points": "Points",
    "target": "À faire",
    "result": "Résultat",
    "made_by": "fait de {margin}",
    "lost_by": "chuté de {margin}",
    "base": "Base",
    "petit_au_bout": "Petit au bout",
    "poignee": "Poignée",
    "chelem": "Chelem",
    "chelem_announced_made": "annoncé et réussi",
    "chelem_announced_lost": "annoncé, non réussi",
    "chelem_made": "réussi, non annoncé",
    "chelem_defence": "réussi par la défense",
    "per_defender": "Par défenseur (S)",
    "score": "Score",
    "total": "Total",
    "annulled": "Donne annulée : {why}",
    "petit_sec": "petit sec (joueur {seat})",
    "all_pass": "tout le monde a passé",
    "sheet_line": "{contract} par le joueur {taker}{partner}, {oudlers}, {points} points, {result}",
    "sheet_partner": " avec le joueur {seat}",
    "sheet_alone": " seul",
    "sheet_oudler": "{n} bout",
    "sheet_oudlers": "{n} bouts",
    # tarot play (le jeu au terminal)
    "you": "Vous",
    "pass": "Passe",
    "yes": "oui",
    "no": "non",
    "trumps": "Atouts",
    "your_hand": "Votre main ({n} cartes)",
    "your_hand_one": "Votre main ({n} carte)",
    "player": "Joueur",
    "final_ranking": "Classement final",
    "welcome": "Tarot : vous êtes le joueur 0, contre {bots} robots ; {deals} donne(s) à jouer.",
    "commands_hint": "Tapez le numéro d'un choix, ou le code d'une carte : KH pour R♥, QS pour D♠, "
                     "NC pour C♣, JD pour V♦, 10S pour 10♠, T21 pour l'atout 21, EX pour l'Excuse ★ "
                     "(? pour le détail). À chaque question : ? aide, dernier (pli précédent), main, "
                     "feuille, conseil, quitter.",
    "help": "Choix : tapez le numéro affiché, ou le nom (passe, prise, garde, garde sans, garde contre), "
            "ou le code de la carte. Les cartes s'affichent à la française : R roi, D dame, "
            "C cavalier, V valet, 1 à 10, puis la couleur ♠ pique, ♥ cœur, ♦ carreau, ♣ trèfle ; "
            "les atouts T1 (le Petit) à T21 ; l'Excuse ★. Le code à taper : la valeur 1…10, K (roi), "
            "Q (dame), N (cavalier), J (valet), puis la couleur S (♠), H (♥), D (♦), C (♣) : tapez KH "
            "pour R♥ (roi de cœur), QS pour D♠ (dame de pique), NC pour C♣ (cavalier de trèfle), "
            "JD pour V♦ (valet de carreau), 10S pour 10♠ (10 de pique), T21 pour l'atout 21, "
            "EX pour l'Excuse ★. La carte telle qu'affichée se tape aussi (R♥, ou RH : R, D, C, V "
            "devant, la couleur ensuite). Majuscules ou minuscules. Plusieurs cartes : séparées par "
            "des espaces. Commandes : ? aide · dernier (pli précédent) · main · "
            "feuille (feuille de marque) · conseil (ce que jouerait l'expert, et pourquoi) · quitter.",
    "goodbye": "Au revoir !",
    "goodbye_interrupted": "Partie interrompue. Au revoir !",
    "deal_header": "Donne {n} sur {total} · donneur : {dealer}",
    "redeal": " (nouvelle distribution)",
    "deal_result": "Résultat de la donne",
    "score_sheet": "Feuille de marque",
    "no_sheet_yet": "Aucune donne n'est encore terminée.",
    "bot_failed": "(le robot du {who} a échoué ({kind}) ; une action légale a été jouée à sa place)",
    "bids": "{who} : {bid}",
    "takes": "{who} prend : {contract}.",
    "you_take": "Vous prenez : {contract}.",
    "chien_hidden": "Le chien reste face cachée.",
    "chien_shown": "Le chien : ",
    "calls": "{who} appelle ",
    "you_call": "Vous appelez ",
    "you_are_partner": "Vous avez la carte appelée : vous êtes le partenaire du {taker} "
                       "(vous seul le savez).",
    "you_play_alone": "Vous jouez seul (la carte appelée est à vous ou au chien).",
    "plays_alone": "{taker} joue seul.",
    "partner_known": "{who} est le partenaire du {taker}.",
    "your_partner": "{who} est votre partenaire.",
    "your_ecart": "Votre écart : ",
    "bot_ecart": "{who} fait son écart.",
    "ecart_trumps": "Atouts mis à l'écart (montrés à tous) : ",
    "announces_chelem": "{who} annonce un chelem !",
    "you_announce_chelem": "Vous annoncez un chelem !",
    "shows_poignee": "{who} montre une poignée ({size}) : ",
    "you_show_poignee": "Vous montrez une poignée ({size}) : ",
    "trick_n": "Pli {n} :",
    "wins_trick": "{who} remporte le pli",
    "you_win_trick": "vous remportez le pli",
    "you_lead": "vous entamez.",
    "last_trick": "Pli précédent : ",
    "no_trick_yet": "Aucun pli n'a encore été joué dans cette donne.",
    "refused": "Interdit : {reason}",
    "not_understood": "Je n'ai pas compris « {line} ». Tapez un numéro de la liste, ou ? pour l'aide.",
    "type_choice": "Tapez un numéro de 1 à {n} (ou un nom, un code de carte ; ? pour l'aide).",
    "unknown_card": "« {token} » n'est pas une carte : tapez un code comme KH (R♥), 10S (10♠), NC (C♣), "
                    "T21 (atout 21), EX (l'Excuse ★), ou un numéro de la liste.",
    "out_of_range": "Aucun choix ne porte ce numéro : choisissez de 1 à {n}.",
    "choose_number": "Tapez un numéro de 1 à {n}.",
    "duplicate_cards": "La même carte est tapée deux fois.",
    "card_count": "Tapez exactement {n} cartes (vous en avez tapé {got}).",
    "yes_or_no": "Répondez 1 (non) ou 2 (oui).",
    "prompt_bid": "Votre enchère :",
    "prompt_call": "Appelez une carte :",
    "ecart_intro": "Faites votre écart : {n} cartes, ni roi, ni bout, ni atout. "
                   "Cartes que vous pouvez écarter :",
    "ecart_intro_trumps": "Faites votre écart : {n} cartes ; vous devez y mettre toutes ces cartes de "
                          "couleur et {trumps} atout(s) (ni roi, ni bout). Cartes que vous pouvez écarter :",
    "prompt_ecart": "Votre écart ({n} cartes : codes ou numéros) :",
    "chelem_question": "Annoncer un chelem (faire tous les plis) ?",
    "prompt_chelem": "Chelem :",
    "poignee_question": "Vous pouvez montrer une poignée avant votre première carte :",
    "poignee_size": "{size} ({n} atouts)",
    "prompt_poignee": "Poignée :",
    "poignee_proposal": "Proposition ({n} cartes) : ",
    "poignee_how": "Entrée (ou o) pour montrer celles-ci, tapez {n} cartes (codes ou numéros "
                   "ci-dessous), ou n pour ne rien montrer :",
    "prompt_poignee_cards": "Cartes à montrer ({n}) :",
    "prompt_card": "Votre carte :",
    "ladder_title": "Classement des robots à {players} joueurs ({games} partie(s) de {deals} donne(s), "
                    "graine {seed})",
    "ladder_caption": "{db} · {seconds} s sur {jobs} processus",
    "ladder_shard_saved": "Part {shard} : {games} des {total} partie(s) jouée(s) (graine {seed}), "
                          "enregistrée(s) dans {out} ; classez les parts avec : "
                          "tarot ladder merge FICHIERS --db URL",
    "ladder_rank": "Rang",
    "ladder_bot": "Robot",
    "ladder_ordinal": "Ordinal (μ − 3σ)",
    "ladder_games": "Parties",
    # la commande conseil (terminal_hint.py)
    "hint_expert": "Expert : ",
    "hint_why_search": ", la meilleure de vos cartes sur {n} donnes tirées au sort "
                       "(en moyenne {mean} pour vous)",
    "hint_why_bidding": ", la meilleure enchère sur {n} donnes tirées au sort (en moyenne {mean} pour vous)",
    "hint_why_ecart": ", retenu parmi les écarts essayés sur {n} donnes tirées au sort "
                      "(en moyenne {mean} pour vous)",
    "hint_why_poignee": " : sur {n} donnes tirées au sort, sa prime vous rapporte {mean} en moyenne",
    "hint_why_rules": ", selon les règles du joueur de club",
    "hint_why_only": ", le seul coup possible",
    "hint_next": " ; sinon ",
    "hint_next_mean": " : {mean}",
    "hint_hide_poignee": "Ne montrez pas votre poignée : sa prime irait le plus souvent au camp adverse.",
    "hint_call": "appeler",
    "hint_ecart_move": "écarter",
    "hint_chelem": "annoncer un chelem",
    "hint_no_chelem": "pas de chelem",
    "hint_poignee_move": "montrer une poignée de {n} atouts",
    "hint_thinking": "L'expert réfléchit…",
    "dup_seat": "Place {seat}",
    "dup_etui": "Étui {n}",
    "dup_set": "Série duplicate {seed} : {players} joueurs, {deals} étuis",
    "dup_dealer": "Donneur : place {seat}",
    "dup_first": "premier à parler : place {seat}",
    "dup_seed": "Graine {seed}",
    "dup_cards": "{n} cartes",
    "dup_chien": "Chien",
    "dup_excuse": "Excuse",
    "dup_rank_letters": "V C D R",
    "dup_seed_drawn": "Graine : {seed} (tirée au hasard : --seed {seed} redonne la même série)",
    "dup_seed_given": "Graine : {seed}",
    "dup_written": "{deals} étuis pour {players} joueurs écrits dans {out} : {first} … {last} "
                   "(enregistrements des donnes), sheets.html (une page imprimable par étui), index.json",
    "dup_ranking": "Classement duplicate (R26) · joueurs : {players} · donnes : {deals} · tables : {tables}",
    "dup_rank": "Rang",
    "dup_percent": "%",
    "dup_played": "Donnes",
    "dup_attack": "Attaque",
    "dup_defence": "Défense",
    "dup_deal": "Donne {n}",
    "dup_table": "Table",
    "dup_result": "Résultat",
    # tarot review (cli/review.py)
    "review_title": "Donne {n} : analyse de l'expert ({budget})",
    "review_budget_playouts": "{n} simulations par décision",
    "review_budget_think": "{s} s par décision",
    "review_seat": "Place",
    "review_decisions": "Décisions",
    "review_mean_loss": "Perte moyenne",
    "review_best": "meilleurs",
    "review_good": "bons",
    "review_inaccuracy": "?!",
    "review_mistake": "?",
    "review_blunder": "??",
    "review_legend": "?! une imprécision (une perte de 5 à 20 points), ? une erreur (20 à 50), "
                     "?? une gaffe (50 ou plus)",
    "review_worst": "Les coups les plus coûteux",
    "review_line": "place {seat}, {where} : joué {played}, meilleur {best} ({loss} points)",
    "review_trick": "levée {n}",
    "review_bid": "enchères",
    "review_call": "appel",
    "review_ecart": "écart",
    "review_chelem": "chelem",
    "review_poignee": "poignée",
    "review_no_poignee": "pas de poignée",
    "review_poignee_of": "poignée de {n} atouts",
    "review_chelem_yes": "chelem annoncé",
    "review_chelem_no": "pas de chelem",
    "review_calls": "appelle {card}",
    "review_par": "Par (toutes les cartes vues) pour les contrats de la place {taker} : {parts} ; "
                  "la donne a marqué {actual}.",
    "review_nobody": "Personne n'a pris : pas de par.",
    "review_none": "Aucune décision à analyser (tous les coups étaient forcés).",
}

MESSAGES: Final[Mapping[Lang, Mapping[str, str]]] = {Lang.EN: _EN, Lang.FR: _FR}


def text(lang: Lang, key: str, **fields: object) -> str:
    """The message ``key`` in ``lang``, with ``fields`` filled in."""
    return MESSAGES[lang][key].format(**fields)


def default_lang(environ: Mapping[str, str] | None = None) -> Lang:
    """French when the locale's messages are French, else English."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return Lang.FR if value.lower().startswith("fr") else Lang.EN
    return Lang.EN


MINUS: Final = "\u2212"  # the true minus sign, as the site writes it ("−106", not "-106")


def minus(figure: str, lang: Lang) -> str:
    """A formatted figure with French typography: the true minus sign (U+2212) and a decimal
    comma; English keeps the hyphen and the point. As the site (``static/js/core/i18n.js``
    ``minus``), no thousands separator: ``−1348``."""
    if lang is Lang.FR:
        return figure.replace("-", MINUS).replace(".", ",")
    return figure


def number(value: float, lang: Lang) -> str:
    """Card points: ``49`` or ``40.5`` (``40,5`` in French; ``−31,5`` with a true minus)."""
    out = f"{value:g}" if value != int(value) else str(int(value))
    return minus(out, lang)


def plural(lang: Lang, count: int) -> bool:
    """Whether ``count`` takes the plural: French says "0 bout", English "0 oudlers"."""
    return count > 1 if lang is Lang.FR else count != 1


def signed(value: int, lang: Lang = Lang.EN) -> str:
    """A score with its sign: ``+318``, ``-106``, ``0`` (in French ``−106``, a true minus)."""
    return minus(f"{value:+d}", lang) if value else "0"


# Why the engine refused an action (``IllegalAction.why``, its particulars in ``args_``), in
# French as the site says it (static/i18n/fr.json, ``why_…``); English shows the engine's own
# reason (``"R15: must follow suit (hearts)"``). ``{card}`` is filled with the card as shown and
# named (``R♥ (roi de cœur)``), ``{suit}`` with the suit's name, ``{bid}`` with the contract.
WHY_FR: Final[Mapping[str, str]] = {
    "not_action": "ce coup n'existe pas",
    "no_seat": "cette place n'existe pas",
    "annulled": "la donne est annulée : plus aucun coup",
    "deal_over": "la donne est finie",
    "not_your_turn": "ce n'est pas à vous de jouer",
    "bidding_over": "les enchères sont finies",
    "bid_too_low": "il faut annoncer plus haut que {bid}",
    "no_call": "pas d'appel maintenant",
    "not_taker": "seul le preneur peut le faire",
    "bad_call": "cette carte ne peut pas être appelée : appelez un roi (une dame seulement avec les "
                "quatre rois, etc.)",
    "no_ecart": "pas d'écart à faire maintenant",
    "ecart_size": "l'écart compte exactement {count} cartes",
    "not_in_hand": "{card} n'est pas dans votre main",
    "ecart_king": "pas de roi à l'écart : {card}",
    "ecart_oudler": "pas de bout à l'écart : {card}",
    "ecart_called": "la carte appelée ne va pas à l'écart : {card}",
    "ecart_trumps": "des atouts à l'écart seulement quand on ne peut pas le compléter autrement",
    "ecart_trump_count": "pas plus d'atouts à l'écart que nécessaire : {count}",
    "no_chelem": "le chelem s'annonce après l'écart, avant la première carte",
    "poignee_late": "la poignée se montre juste avant de jouer sa première carte",
    "poignee_once": "une seule poignée par joueur",
    "poignee_card": "{card} ne peut pas être montré : une poignée, ce sont des atouts (ou l'Excuse) "
                    "de votre main",
    "poignee_size": "une poignée compte exactement {counts} atouts",
    "poignee_excuse": "avec l'Excuse, la poignée montre tous vos atouts",
    "no_play": "on joue les cartes après les enchères et l'écart",
    "not_card": "ce n'est pas une carte",
    "called_suit_lead": "à la première levée, on n'entame pas dans la couleur appelée, "
                        "sauf par la carte appelée : {card}",
    "must_follow": "vous devez fournir à {suit}",
    "must_overtrump": "vous devez monter sur {card}",
    "must_trump": "vous devez couper (jouer un atout)",
}
