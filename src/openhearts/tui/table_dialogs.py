"""The table's dialogs: score sheet, game over, moon choice, last trick, won cards,
memory aids, statistics, help, options and a new game."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from ..phases import Phase
from ..sentences import spoken as words
from ..sentences.records import deal_summary, review_trick_line
from ..session import SessionError
from ..session.names import marked_names
from ..session.review import deal_reviews, opening_deal
from ..session.words import join_words
from .screens import (
    ChoiceScreen,
    InfoScreen,
    MoonChoiceScreen,
    ReviewScreen,
    keys_help,
    memory_text,
    new_game_question,
    score_table,
    won_cards_text,
)
from .table_base import SPOKEN, TableBase
from .widgets import SeatPanel, TrickView

__all__ = ["DialogsMixin"]


class DialogsMixin(TableBase):
    def show_sheet(self, after_deal: bool = False) -> None:
        game = self.session.game
        if game.is_over:
            self.show_game_over()
            return
        if not game.results:
            self.say(["No deal has been finished yet."])
            return
        if after_deal:
            # The new deal is dealt: the last deal's trick gives way to it behind the sheet.
            self.previous_trick = None
            self.refresh_table()
        title = f"After deal {game.results[-1].number + 1}" if after_deal else "Score sheet"
        table = score_table(game, self.session.human, self.app.size.width - 12)
        self.app.push_screen(
            InfoScreen(title, table, button="Next deal" if after_deal else "Close")
        )

    def show_game_over(self) -> None:
        self.refresh_bindings()  # the footer: a new game, no more moves
        session = self.session
        game = session.game
        view = session.view()
        winners = join_words([game.names[s] for s in game.winners])
        headline = words.status(view)
        if self.hearts.announcements[-1:] != [headline]:
            self.say([headline])
        stats = self.final_stats or self.hearts.storage.load_stats()
        body = Text(f"{headline}\n", style="bold")
        body.append(f"Winner{'s' if len(game.winners) > 1 else ''}: {winners}")
        # The totals and your statistics first: at 80×24 the deals below them scroll.
        # Lower than that the statistics go last, below the deals: above the sheet they
        # hid its totals (60×20).
        statistics = Text.assemble(("Your statistics: ", "bold"), stats.summary())
        sheet = score_table(game, session.human, self.app.size.width - 12, totals_first=True)
        if self.app.size.height >= 24:
            group = Group(body, statistics, sheet)
        else:
            group = Group(body, sheet, statistics)
        self.app.push_screen(
            ChoiceScreen(
                "Game over",
                group,
                [("again", "Play again"), ("options", "Options"), ("quit", "Quit")],
                cancel="stay",
            ),
            self._game_over_choice,
        )

    def _game_over_choice(self, choice: str | None) -> None:
        if choice == "again":
            self.hearts.start_again()
        elif choice == "options":
            # With a way back to the finished table (Escape), not only Start or Quit.
            self.hearts.show_options(in_game=True)
        elif choice == "quit":
            self.app.exit(0)

    def ask_moon(self) -> None:
        game = self.session.game
        points = game.rules.points_in_play
        suggested = game.suggested_moon_choice()
        added = list(game.moon_totals(True))
        subtracted = list(game.moon_totals(False))

        def listing(values: list[int]) -> str:
            return ", ".join(f"{n} {v}" for n, v in zip(game.names, values, strict=True))

        totals = (
            f"{listing(list(game.scores))}\nIf everyone else adds {points}: {listing(added)}"
            f"\nIf you subtract {points}: {listing(subtracted)}"
        )
        self.say(
            [
                f"You shot the moon! Choose: everyone else adds {points}, or you subtract "
                f"{points}. Suggested: {'add' if suggested else 'subtract'}."
            ]
        )
        hinted = self.moon_hint
        if hinted is not None and hinted[0] == game.deal_number:
            # Asked again after H: the hint stays in sight.
            totals += f"\n\n{hinted[1]}"
        self.app.push_screen(
            MoonChoiceScreen(
                "You shot the moon!",
                Text("Totals now: " + totals),
                [("add", f"Everyone else adds {points}"), ("subtract", f"I subtract {points}")],
                cancel="add" if suggested else "subtract",
                focus="add" if suggested else "subtract",
                escape_label="Suggested",
            ),
            self._moon_choice,
        )

    def _moon_choice(self, choice: str | None) -> None:
        game = self.session.game
        if game.phase != Phase.MOON_CHOICE or game.current_player != self.session.human:
            return
        # The keys of the dialog that are the table's: the dialog comes back after a hint
        # (the game still waits for the choice), not after the others.
        if choice == "hint":
            self.action_hint()
            self.advance()
            return
        if choice == "for_me":
            self.action_play_for_me()
            return
        if choice == "undo":
            self.action_undo()
            return
        try:
            events = self.session.choose_moon(self.session.human, choice != "subtract")
        except SessionError as error:
            self.refuse(str(error))
            return
        self.after_action(events)

    def on_seat_panel_clicked(self, message: SeatPanel.Clicked) -> None:
        message.stop()
        self.show_won([message.seat])

    def on_trick_view_clicked(self, message: TrickView.Clicked) -> None:
        message.stop()
        self.action_last_trick()

    def action_last_trick(self) -> None:
        """The tricks of the game, opened at the last trick played, which is said."""
        view = self.session.view()
        game = self.session.game
        deals = deal_reviews(game)
        shown = opening_deal(deals)
        spoken = [words.subject(view, seat) for seat in range(view.players)]
        summaries = [deal_summary(spoken, game.rules, deal) for deal in deals]
        tricks = deals[shown].tricks
        said = summaries[shown]
        if tricks:
            said += " " + review_trick_line(SPOKEN, spoken, tricks[-1])
        self.say([said])
        self.app.push_screen(
            ReviewScreen(
                deals, marked_names(view.names, view.seat), summaries, shown, self.hearts.announce
            )
        )

    def action_won(self) -> None:
        self.show_won(list(range(self.session.game.rules.players)))

    def show_won(self, seats: list[int]) -> None:
        view = self.session.view()
        for seat in seats:
            won = view.won[seat]
            who = words.subject(view, seat)
            verb = "have" if seat == view.seat else "has"
            what = words.cards_words(won) if won else "nothing"
            self.hearts.announce(f"{who} {verb} won {what}.")
        title = "Cards won this deal" if len(seats) > 1 else f"Cards won by {view.names[seats[0]]}"
        self.app.push_screen(
            InfoScreen(title, won_cards_text(self.session.game, self.session.human, seats))
        )

    def action_memory(self) -> None:
        """Memory aids for this deal: a dialog, and the same said in sentences."""
        view = self.session.view()
        for sentence in words.memory(view):
            self.hearts.announce(sentence)
        title = f"Memory: deal {view.deal_number + 1}"
        self.app.push_screen(InfoScreen(title, memory_text(view)))

    def action_sheet(self) -> None:
        game = self.session.game
        if game.results:
            self.hearts.announce(words.scores(self.session.view()))
        else:
            # The sheet has only its Total row yet: a listener is told as much.
            self.hearts.announce(
                "No deal has been finished yet. " + words.scores(self.session.view())
            )
        if game.is_over:
            self.show_game_over()
            return
        self.app.push_screen(
            InfoScreen(
                "Score sheet", score_table(game, self.session.human, self.app.size.width - 12)
            )
        )

    def action_options(self) -> None:
        self.hearts.show_options(in_game=True)

    def action_new_game_now(self) -> None:
        """N as the footer offers it once the game is over."""
        self.action_new_game()

    def action_new_game(self) -> None:
        over = self.session.game.is_over

        def chosen(choice: str | None) -> None:
            if choice == "new":
                self.hearts.start_again()
            elif choice == "options":
                self.hearts.show_options(in_game=True)
            elif not over:
                self.hearts.announce("No new game: this one goes on.")

        sentence, question = new_game_question(over)
        self.hearts.announce(sentence)
        self.app.push_screen(question, chosen)

    def action_stats(self) -> None:
        storage = self.hearts.storage
        storage.problem = None
        stats = storage.load_stats()
        if storage.problem:
            self._warn(storage.problem)
        for line in stats.lines():
            self.hearts.announce(line)
        self.app.push_screen(InfoScreen("Your statistics", Text("\n".join(stats.lines()))))

    def action_help(self) -> None:
        self.hearts.announce(
            "Help: arrows move along your hand, Enter plays, P passes, H hint, G plays for you, "
            "U undo, C table, 1 to 6 each card, S scores, T turn, R your hand, M memory aids. "
            "The rules of this game follow the keys."
        )
        self.app.push_screen(InfoScreen("Keys and rules", keys_help(self.session.game.rules)))
