"""Researcher pages: log in and out, list and create studies, follow a study's progress."""

from __future__ import annotations

import json
import secrets
import statistics
from functools import cache
from typing import Any

from flask import Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_user, logout_user
from sqlalchemy import select
from werkzeug.security import check_password_hash, generate_password_hash

from .. import validation
from ..db import get_session
from ..games import calibration
from ..models import Game, Participant, Study, User
from ..study import lifecycle, preparing, questions, rights, studies
from . import audit, bp, codebook, exports, login_required, logins, report, report_cache
from .access import members_of, role_of, studies_of, study_for

MAX_UPLOAD_BYTES = 200_000


@cache
def unknown_user_hash(method: str) -> str:
    """A password hash made as account hashes are (``flask user create``, by this method), checked when the email
    matches no account; made once per process and method."""
    return generate_password_hash(secrets.token_hex(16), method=method)


@bp.route("/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    """Log a researcher in by email and password."""
    error = None
    if request.method == "POST":
        email = (request.form.get("email") or "").strip().lower()
        user = get_session().scalar(select(User).where(User.email == email))
        password = request.form.get("password") or ""
        # An unknown email costs the same hash check as a known one, so the answer's timing tells no account apart.
        matches = check_password_hash(
            user.password_hash if user is not None else unknown_user_hash(current_app.config["PASSWORD_HASH_METHOD"]),
            password,
        )
        if user is not None and matches and not user.is_active:
            error = "This account is disabled: ask an administrator."
        elif user is not None and matches:
            login_user(user)
            logins.start(get_session(), user)
            return redirect(url_for("research.index"))
        else:
            error = "Wrong email or password."
    return render_template("research/login.html", error=error), 401 if error else 200


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    """Log out: the log-in ends on the server too (a saved copy of the cookie opens nothing afterwards)."""
    logins.end_own(get_session())
    logout_user()
    return redirect(url_for("research.login"))


@bp.get("/")
@login_required
def index() -> ResponseReturnValue:
    """The researcher's studies (archived ones too with ``?archived=1``; preview copies never)."""
    archived = request.args.get("archived") == "1"
    listed = [
        (found, role) for found, role in studies_of(get_session(), current_user) if lifecycle.is_listed(found, archived)
    ]
    return render_template("research/index.html", studies=listed, archived=archived)


@bp.route("/studies/new", methods=["GET", "POST"])
@login_required
def new_study() -> ResponseReturnValue:
    """The form to create a study, and its handling: the form and the puzzles' text are checked here, the puzzles
    are rated and the bank rows claimed by a background job (``webapp.study.preparing``) that the study page follows."""
    form = request.form
    if request.method == "GET":
        return render_template("research/new_study.html", form={}, error=None)
    try:
        study = studies.create_study(
            get_session(),
            current_user,
            name=form.get("name") or "",
            work=work_of_form(),
            order_scheme=form.get("order_scheme") or "fixed",
            description=form.get("description") or "",
            consent_text=form.get("consent_text") or "",
            instructions=form.get("instructions") or "",
            settings=settings_of_form(),
            questionnaire=questionnaire_of_form(),
            phase=studies.DRAFT,
            caps=caps_of_form(),
        )
    except studies.StudyError as error:
        return render_template("research/new_study.html", form=form, error=str(error)), 400
    if not preparing.enqueue(current_app, study):
        study.heartbeat_at = None  # not queued: the study page queues it again
        get_session().commit()
    count = studies.Pending.from_json(study.pending or {}).count
    flash(f"Study created: its {count} puzzles are being prepared.", "study")
    return redirect(url_for("research.study", study_id=study.id), 303)


def work_of_form() -> studies.Pending:
    """The study's puzzles from the form, checked (all of an uploaded file, else pasted puzzles), or its targets
    (target D values, else slider values)."""
    upload = request.files.get("puzzle_file")
    if upload is not None and upload.filename:
        data = upload.read(MAX_UPLOAD_BYTES + 1)
        if len(data) > MAX_UPLOAD_BYTES:
            raise studies.StudyError(f"The puzzle file is larger than {MAX_UPLOAD_BYTES // 1000} kB.")
        try:
            return studies.Pending(puzzles=tuple(studies.checked_puzzles(data.decode("utf-8-sig"))))  # BOM dropped
        except UnicodeDecodeError:
            raise studies.StudyError("The puzzle file is not UTF-8 text.") from None
    pasted = request.form.get("puzzles") or ""
    if pasted.strip():
        return studies.Pending(puzzles=tuple(studies.checked_puzzles(pasted)))
    targets = request.form.get("targets") or ""
    if targets.strip():
        return studies.Pending(targets=tuple(studies.targets_of_d(numbers(targets, "target D", 1.0, 11.0))))
    sliders = numbers(request.form.get("sliders") or "", "slider value", 0.0, 100.0)
    return studies.Pending(targets=tuple(studies.targets_of_sliders(sliders)))


def numbers(text: str, name: str, low: float, high: float) -> list[float]:
    """Numbers within bounds separated by commas or spaces; StudyError names a bad one."""
    values = []
    for part in text.replace(",", " ").split():
        try:
            value = float(part)
        except ValueError:
            raise studies.StudyError(f"{part!r} is not a {name} ({low:g} to {high:g}).") from None
        if not low <= value <= high:
            raise studies.StudyError(f"The {name} {part} is outside {low:g} to {high:g}.")
        values.append(value)
    if not values:
        raise studies.StudyError("Give the puzzles: slider values, target D values, pasted puzzles, or a file.")
    return values


def settings_of_form() -> dict[str, Any]:
    """The board settings from the form's fields."""
    form = request.form
    settings: dict[str, Any] = {
        "autofill": form.get("autofill") == "on",
        "checking": form.get("checking") == "on",
        "breaks": form.get("breaks") == "on",
        "show_rating": form.get("show_rating") == "on",
        "calibrate": form.get("calibrate") == "on",
    }
    settings["hint_rungs"] = bounded_int(form.get("hint_rungs") or "4", "Hints up to rung", 0, 4)
    limit = (form.get("time_limit_minutes") or "").strip()
    settings["time_limit_s"] = bounded_int(limit, "Time limit", 1, 600) * 60 if limit else None
    settings["abandon_minutes"] = bounded_int(form.get("abandon_minutes") or "60", "Abandoned after", 5, 10080)
    redirect_url = (form.get("redirect_url") or "").strip()
    if redirect_url and not studies.is_web_address(redirect_url):
        raise studies.StudyError(
            "The completion redirect must be an http(s) address with a host, without spaces or control characters, "
            f"of at most {studies.MAX_REDIRECT_LENGTH} characters."
        )
    settings["redirect_url"] = redirect_url or None
    return settings


def questionnaire_of_form() -> dict[str, Any] | None:
    """The questionnaire from the form: the questions' text and the built-in per-puzzle items switched on."""
    form = request.form
    built_in = [name for name in questions.BUILT_IN if form.get(f"ask_{name}") == "on"]
    return questions.parse(form.get("questions") or "", built_in)


def caps_of_form() -> tuple[int | None, int | None]:
    """The caps on participants from the form (empty: none): in total, and per row of a Latin square."""
    found = []
    for field, name in (("max_participants", "Most participants"), ("max_per_row", "Most participants per order")):
        text = (request.form.get(field) or "").strip()
        found.append(bounded_int(text, name, 1, lifecycle.MAX_CAP) if text else None)
    return found[0], found[1]


def bounded_int(text: str, name: str, low: int, high: int) -> int:
    """A whole number within bounds, or a StudyError naming the field."""
    try:
        return validation.bounded_int(text, low, high)
    except ValueError as problem:
        raise studies.StudyError(f"{name}: {problem}.") from None


@bp.get("/studies/<int:study_id>")
@login_required
def study(study_id: int) -> ResponseReturnValue:
    """A study's entry link and live progress: participants started and finished, per-puzzle times; while its
    puzzles are being prepared, how far that is."""
    found = study_for(study_id)
    session = get_session()
    team = {
        "team": members_of(session, found),
        "role": role_of(session, found, current_user),
        "moves": lifecycle.moves_of(found),
        "move_names": lifecycle.MOVE_NAMES,
    }
    if found.state == studies.PREPARING:  # the page's poll (a post) queues a stalled preparation again
        return render_template("research/study.html", study=found, total=planned(found), **team)
    return render_template("research/study.html", study=found, **progress_of(found), **team)


@bp.post("/studies/<int:study_id>/preparing")
@login_required
def preparation(study_id: int) -> ResponseReturnValue:
    """The fragment the page of a study being prepared polls: puzzles rated so far; a full reload once it ends.
    A post, as it queues the preparation again when its job shows no sign of life."""
    found = study_for(study_id)
    if found.state != studies.PREPARING:
        return Response(status=204, headers={"HX-Refresh": "true"})
    preparing.requeue_if_stale(current_app, get_session(), found)
    return render_template("research/_preparing.html", study=found, total=planned(found))


def planned(found: Study) -> int:
    """How many puzzles a study being prepared will have."""
    return studies.Pending.from_json(found.pending or {}).count


@bp.get("/studies/<int:study_id>/progress")
@login_required
def progress(study_id: int) -> ResponseReturnValue:
    """The progress fragment the study page refreshes every few seconds."""
    found = study_for(study_id)
    return render_template("research/_progress.html", study=found, **progress_of(found))


def progress_of(found: Study) -> dict[str, Any]:
    """Counts of participants by stage, and completions and median time per puzzle."""
    session = get_session()
    people = list(session.scalars(select(Participant).where(Participant.study_id == found.id)))
    ids = [p.id for p in people]
    played = list(session.scalars(select(Game).where(Game.participant_id.in_(ids)))) if ids else []
    rows = []
    for puzzle in found.puzzles:
        times = [g.solve_seconds for g in played if g.study_puzzle_id == puzzle.id and g.solve_seconds is not None]
        rows.append({"puzzle": puzzle, "completed": len(times), "median": statistics.median(times) if times else None})
    counts = {
        "arrived": len(people),
        "consented": sum(p.consented_at is not None for p in people),
        "declined": sum(p.state == "declined" for p in people),
        "finished": sum(p.state == "done" for p in people),
    }
    return {"rows": rows, "counts": counts, "withdrawals": rights.withdrawals(session, found)}


@bp.get("/studies/<int:study_id>/export/<kind>")
@login_required
def export(study_id: int, kind: str) -> ResponseReturnValue:
    """Download the study's long CSV, wide CSV, answers CSV, JSON or codebook (columns in docs/data.md)."""
    found = study_for(study_id)
    name = f"study-{found.public_id}"
    if kind == "long.csv":
        body, mimetype = exports.long_csv(get_session(), found), "text/csv"
    elif kind == "wide.csv":
        body, mimetype = exports.wide_csv(get_session(), found), "text/csv"
    elif kind == "study.json":
        body, mimetype = json.dumps(exports.study_json(found, get_session()), indent=1), "application/json"
    elif kind == "answers.csv":
        body, mimetype = exports.answers_csv(get_session(), found), "text/csv"
    elif kind == "codebook.csv":
        body, mimetype = codebook.codebook_csv(found), "text/csv"
    else:
        abort(404, description="Exports are long.csv, wide.csv, answers.csv, study.json and codebook.csv.")
    audit.record_read("export", found, kind)
    disposition = f'attachment; filename="{name}-{kind}"'
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": disposition})


@bp.get("/studies/<int:study_id>/report")
@login_required
def study_report(study_id: int) -> ResponseReturnValue:
    """The validation report (per-puzzle times, every rating against them, the two-way model, Table II) as computed
    for the study's current data; while that is computed, the latest one if any, and a note that polls."""
    return report_page(study_for(study_id))


def report_page(found: Study, refit_error: str | None = None, status: int = 200) -> ResponseReturnValue:
    """The report page of a study, with a refit's refusal when there was one."""
    session = get_session()
    view = report_cache.peek(session, found)  # the page's poll (a post) queues the computation
    shown = report_cache.served(view.shown, found) if view.shown is not None else None
    page = render_template(
        "research/report.html",
        study=found,
        view=view,
        report=shown,
        missing=report.missing(shown) if shown is not None else [],
        meanings=report.MEANINGS,
        refit_problem=refit_error or report.refit_problem(session, found),
        withdrawals=rights.withdrawals(session, found),
        calibration=calibration.in_force(session),
    )
    return page, status


@bp.post("/studies/<int:study_id>/report/status")
@login_required
def report_status(study_id: int) -> ResponseReturnValue:
    """The fragment the report page polls while the report is computed (a post: the first poll queues the
    computation, a later one queues it again when it shows no sign of life); a full reload once it is done."""
    found = study_for(study_id)
    view = report_cache.lookup(current_app, get_session(), found)
    if not view.computing:
        return Response(status=204, headers={"HX-Refresh": "true"})
    return render_template("research/_report_status.html", study=found, view=view)


@bp.post("/studies/<int:study_id>/calibrate")
@login_required
def calibrate(study_id: int) -> ResponseReturnValue:
    """Refit the slider's time calibration from this study and put it in force."""
    found = study_for(study_id, "owner")
    try:
        fitted = report.refit_calibration(get_session(), found)
    except ValueError as error:
        return report_page(found, str(error), 409)  # the report page, saying why, with its way back
    audit.record_change(get_session(), "calibration-refit", found, f"calibration {fitted.id} from this study's games")
    get_session().commit()
    formula = f"ln(minutes) = {fitted.intercept:.3f} + {fitted.slope:.3f} ln(prior minutes)"
    flash(f"Calibration {fitted.id} is in force: {formula}.", "report")
    return redirect(url_for("research.study_report", study_id=found.id), 303)
