"""The participant side of a study, the ``study`` blueprint: entry link, consent, instructions, the puzzles in order,
giving up on a puzzle, withdrawing, the end. Who is who comes from the signed session cookie (set by the entry link)
or a label. What the pages allow follows the study's phase (``lifecycle``)."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from ..db import get_session
from ..games.access import forget, remember, remembered
from ..models import Participant, Study
from . import consent as consent_text
from . import questions, rights, studies

bp = Blueprint("study", __name__, url_prefix="/s")


@bp.context_processor
def consent_helpers() -> dict[str, object]:
    """The consent text's rendering (safe HTML pieces and clauses) for the participant's pages."""
    return {"consent_parts": consent_text.parts}


def any_study(public_id: str) -> Study:
    """The study of an entry link in any phase; 404 when there is none (or it is another researcher's preview)."""
    study = get_session().scalar(select(Study).where(Study.public_id == public_id))
    if study is None or (study.phase == studies.PREVIEW and not is_previewer(study)):
        abort(404, description="There is no study at this address. Check the link you were given.")
    return study


def is_previewer(study: Study) -> bool:
    """Whether the logged-in researcher made this preview copy (only they may take it)."""
    return bool(current_user.is_authenticated) and current_user.id == study.owner_id


def open_study(public_id: str) -> Study:
    """The study of an entry link; 404 when there is none, and a page saying so when participants cannot go on:
    409 while its puzzles are being prepared or it is a draft, 410 when they could not be prepared or it is closed
    or archived."""
    study = any_study(public_id)
    if study.state != studies.READY:
        code = 409 if study.state == studies.PREPARING else 410
        abort(make_response(render_template("study/not_open.html", study=study), code))
    if study.phase in (studies.CLOSED, studies.ARCHIVED) or study.closed_at is not None:
        abort(make_response(render_template("study/closed.html", study=study), 410))
    if study.phase == studies.DRAFT:
        abort(make_response(render_template("study/not_open.html", study=study), 409))
    return study


def refuse_arrival(study: Study, problem: str | None = None) -> ResponseReturnValue:
    """The page for someone new at a paused or full study."""
    return render_template("study/not_open.html", study=study, problem=problem), 409


def this_participant(study: Study) -> Participant:
    """The participant of this browser in the study, or 403 when the browser has not entered it."""
    public_id = remembered(study)
    found = studies.returning(get_session(), study, public_id, None) if public_id else None
    if found is None:
        abort(403, description="Open the study through its entry link first.")
    return found


@bp.route("/<public_id>", methods=["GET", "POST"])
def entry(public_id: str) -> ResponseReturnValue:
    """The entry link: a participant this browser or a label recognises goes on to where they are; anyone else
    gets a page that posts itself back (its script does so at once), and the post enrols them. A visit alone,
    such as a link preview, enrols no one."""
    study = open_study(public_id)
    labels = {key: request.args.get(key, "")[:200] for key in studies.LABEL_KEYS}
    secret = str(current_app.secret_key or "")
    if request.method == "GET":
        who = studies.identity(studies.hashed_labels(secret, labels))
        participant = studies.returning(get_session(), study, remembered(study), who)
        if participant is None and study.phase == studies.PAUSED:
            return refuse_arrival(study)
        if participant is None:
            return render_template(
                "autostart.html",
                heading=study.name,
                button="Take part",
                button_id="enter-study",
                action=request.full_path,
            )
    else:
        paused = study.phase == studies.PAUSED
        try:
            participant = studies.enter(get_session(), study, secret, labels, remembered(study), new=not paused)
        except studies.StudyFull as error:
            return refuse_arrival(study, str(error))
        except studies.StudyError as error:
            abort(503, description=str(error))
        if participant is None:
            return refuse_arrival(study)
    remember(study, participant)
    return redirect(url_for("study.step", public_id=public_id), 303)


@bp.get("/<public_id>/go")
def step(public_id: str) -> ResponseReturnValue:
    """The page for where the participant is: consent, instructions, the current puzzle, or the end."""
    study = open_study(public_id)
    participant = this_participant(study)
    page = questions.due(get_session(), study, participant)
    if page is not None:
        return questions_page(study, page)
    if participant.state == "playing":
        puzzle = studies.study_puzzle(study, participant)
        game = studies.existing_game(get_session(), participant, puzzle) if puzzle is not None else None
        if game is not None:
            return redirect(url_for("play.game", game_id=game.id), 303)
        if puzzle is not None:  # the next puzzle is opened by a post (the break page's button)
            return render_template("study/break.html", study=study, participant=participant)
    templates = {
        "consent": "study/consent.html",
        "instructions": "study/instructions.html",
        "declined": "study/declined.html",
        "done": "study/done.html",
        rights.WITHDRAWN: "study/withdrawn.html",
    }
    redirect_url = study.settings.get("redirect_url")
    previewing = study.phase == studies.PREVIEW  # the owner's preview ends on its own page, with the way back
    if participant.state == "done" and redirect_url and studies.is_web_address(redirect_url) and not previewing:
        return redirect(redirect_url, 303)
    shown = studies.solved_ratings(get_session(), study, participant) if participant.state == "done" else []
    return render_template(
        templates.get(participant.state, "study/done.html"), study=study, participant=participant, ratings=shown
    )


@bp.post("/<public_id>/consent")
def consent(public_id: str) -> ResponseReturnValue:
    """Agree or decline."""
    study = open_study(public_id)
    answer = request.form.get("answer")
    if answer not in ("agree", "decline"):
        abort(400, description="Answer agree or decline.")
    clauses = consent_text.clause_count(study.consent_text)
    ticked = set(request.form.getlist("clause"))
    if answer == "agree" and ticked != {str(n) for n in range(1, clauses + 1)}:
        abort(400, description=f"Tick every clause of the consent to agree ({clauses} clauses).")
    studies.consent(get_session(), this_participant(study), answer == "agree")
    return redirect(url_for("study.step", public_id=public_id), 303)


@bp.post("/<public_id>/start")
def start(public_id: str) -> ResponseReturnValue:
    """Leave the instructions, or a break, for the current puzzle: its game is opened here."""
    study = open_study(public_id)
    participant = this_participant(study)
    if questions.due(get_session(), study, participant) is not None:
        abort(409, description="Answer the questions on the study's page first.")
    studies.start(get_session(), participant)
    open_current_game(study, participant)
    return redirect(url_for("study.step", public_id=public_id), 303)


def open_current_game(study: Study, participant: Participant) -> None:
    """Create the game of the participant's current puzzle if they are playing and it does not exist yet."""
    if participant.state == "playing":
        studies.current_game(get_session(), study, participant)


@bp.post("/<public_id>/next")
def next_puzzle(public_id: str) -> ResponseReturnValue:
    """After a solved (or timed-out) puzzle: its questions, a break page if the study has them, else the next
    puzzle."""
    study = open_study(public_id)
    participant = this_participant(study)
    try:
        studies.advance(get_session(), study, participant)
    except studies.StudyError as error:
        abort(409, description=str(error))
    return onwards(study, participant)


def onwards(study: Study, participant: Participant) -> ResponseReturnValue:
    """Where a participant goes once a puzzle is over (solved, timed out or given up): its page of questions if one
    is due, else a break page if the study has them, else the next puzzle (or the end)."""
    if questions.due(get_session(), study, participant) is not None:
        return redirect(url_for("study.step", public_id=study.public_id), 303)
    if participant.state == "playing" and study.settings.get("breaks"):
        return redirect(url_for("study.pause_between", public_id=study.public_id), 303)
    open_current_game(study, participant)
    return redirect(url_for("study.step", public_id=study.public_id), 303)


@bp.get("/<public_id>/break")
def pause_between(public_id: str) -> ResponseReturnValue:
    """The break page between two puzzles (safe to reload); its button opens the next puzzle (``start``)."""
    study = open_study(public_id)
    participant = this_participant(study)
    if participant.state != "playing" or questions.due(get_session(), study, participant) is not None:
        return redirect(url_for("study.step", public_id=public_id), 303)
    return render_template("study/break.html", study=study, participant=participant)


def questions_page(study: Study, page: questions.Page, errors: dict[str, str] | None = None) -> ResponseReturnValue:
    """The page of questions a participant is due (400 with a message by each answer refused)."""
    sent = request.form if errors else MultiDict()
    body = render_template("study/questions.html", study=study, page=page, errors=errors or {}, sent=sent)
    return body, 400 if errors else 200


@bp.post("/<public_id>/answers")
def answers(public_id: str) -> ResponseReturnValue:
    """Store the answers to the page of questions due, then go on: the instructions, the break or the next puzzle,
    the end."""
    study = open_study(public_id)
    participant = this_participant(study)
    page = questions.due(get_session(), study, participant)
    if page is None or request.form.get("page") != page.name:
        abort(409, description="These questions are already answered: go on from the study's page.")
    try:
        questions.answer(get_session(), participant, page, request.form.to_dict(flat=False))
    except questions.AnswerErrors as error:
        return questions_page(study, page, error.errors)
    if page.block == "puzzle":
        return onwards(study, participant)
    return redirect(url_for("study.step", public_id=public_id), 303)


@bp.get("/<public_id>/consent.txt")
def consent_download(public_id: str) -> ResponseReturnValue:
    """The consent text as plain text to keep, saying when this browser's participant agreed to it."""
    study = open_study(public_id)
    public = remembered(study)
    participant = studies.returning(get_session(), study, public, None) if public else None
    body = consent_text.plain_text(study.name, study.consent_text, participant.consented_at if participant else None)
    disposition = f'attachment; filename="consent-{study.public_id}.txt"'
    return Response(body, mimetype="text/plain", headers={"Content-Disposition": disposition})


@bp.route("/<public_id>/give-up", methods=["GET", "POST"])
def give_up(public_id: str) -> ResponseReturnValue:
    """Give up on the current puzzle: a page asks to confirm (GET), the post records it and goes on."""
    study = open_study(public_id)
    participant = this_participant(study)
    if request.method == "GET":
        puzzle = studies.study_puzzle(study, participant) if participant.state == "playing" else None
        game = studies.existing_game(get_session(), participant, puzzle) if puzzle is not None else None
        if game is None or game.completed_at is not None or game.gave_up_at is not None:
            return redirect(url_for("study.step", public_id=public_id), 303)
        return render_template("study/give_up.html", study=study, participant=participant, game=game)
    try:
        rights.give_up(get_session(), study, participant)
    except studies.StudyError as error:
        abort(409, description=str(error))
    return onwards(study, participant)


@bp.route("/<public_id>/withdraw", methods=["GET", "POST"])
def withdraw(public_id: str) -> ResponseReturnValue:
    """Withdraw from the study at any point, even once it is closed: a page offers to keep or to delete everything
    recorded (GET); the post does it at once."""
    study = any_study(public_id)
    participant = this_participant(study)
    if request.method == "GET":
        return render_template("study/withdraw.html", study=study, participant=participant)
    choice = request.form.get("delete")
    if choice not in ("yes", "no"):
        abort(400, description="Choose whether to delete your data: yes or no.")
    if choice == "no" and participant.state == rights.WITHDRAWN:
        return redirect(url_for("study.step", public_id=public_id), 303)
    rights.withdraw(get_session(), study, participant, choice == "yes")
    if choice == "no":
        return redirect(url_for("study.step", public_id=public_id), 303)
    forget(study)
    return render_template("study/withdrawn.html", study=study, deleted=True)
