"""A study's management pages: change a draft, move it through its phases (open, pause, close, archive), duplicate
it, preview it as a participant, and delete one participant's data by their label.

Every change asks for an owner of the study (``study_for(..., "owner")``); a duplicate only for a viewer, as it
changes nothing of the study. The rules live in ``webapp.study.lifecycle`` and ``webapp.study.rights``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from ..db import get_session
from ..models import AuditEvent, Study
from ..study import lifecycle, preparing, rights, studies
from . import audit, bp, login_required
from .access import administrator_only, study_for
from .views import caps_of_form, questionnaire_of_form, settings_of_form, work_of_form

PUZZLE_FIELDS = ("puzzles", "targets", "sliders")
T = TypeVar("T")


def or_409(action: Callable[[], T]) -> T:
    """What the action returns, or 409 with the message of the StudyError it raised (a change the rules refuse)."""
    try:
        return action()
    except studies.StudyError as error:
        abort(409, description=str(error))


def form_of(study: Study) -> dict[str, Any]:
    """The edit form's fields as the study has them."""
    settings = study.settings
    limit = settings.get("time_limit_s")
    asked = study.questionnaire or {}
    return {
        "name": study.name,
        "description": study.description,
        "consent_text": study.consent_text,
        "instructions": study.instructions,
        "order_scheme": study.order_scheme,
        "hint_rungs": str(settings.get("hint_rungs", 4)),
        **{
            key: "on" if settings.get(key) else "off"
            for key in ("autofill", "checking", "breaks", "show_rating", "calibrate")
        },
        "time_limit_minutes": str(int(limit) // 60) if limit else "",
        "abandon_minutes": str(settings.get("abandon_minutes") or 60),
        "redirect_url": settings.get("redirect_url") or "",
        "max_participants": "" if study.max_participants is None else str(study.max_participants),
        "max_per_row": "" if study.max_per_row is None else str(study.max_per_row),
        "questions": asked.get("source") or "",
        **{f"ask_{name}": "on" for name in asked.get("per_puzzle") or ()},
    }


def new_puzzles() -> studies.Pending | None:
    """The puzzles the edit form gives (None: keep the study's)."""
    upload = request.files.get("puzzle_file")
    given = any((request.form.get(name) or "").strip() for name in PUZZLE_FIELDS)
    return work_of_form() if given or (upload is not None and upload.filename) else None


@bp.route("/studies/<int:study_id>/edit", methods=["GET", "POST"])
@login_required
def edit_study(study_id: int) -> ResponseReturnValue:
    """Change a draft: its name, texts, questionnaire, order, settings, caps and (prepared again) its puzzles."""
    found = study_for(study_id, "owner")
    if found.phase != studies.DRAFT:
        abort(409, description=f"Only a draft can be changed; this study is {found.phase}. Duplicate it instead.")
    if request.method == "GET":
        return render_template("research/new_study.html", form=form_of(found), error=None, editing=found)
    form = request.form
    try:
        work = new_puzzles()
        texts = ("name", "description", "consent_text", "instructions")
        fields: dict[str, Any] = {name: form.get(name) or "" for name in texts}
        fields["order_scheme"] = form.get("order_scheme") or "fixed"
        fields["settings"], fields["questionnaire"] = settings_of_form(), questionnaire_of_form()
        lifecycle.edit(get_session(), found, fields, work, caps_of_form())
    except studies.StudyError as error:
        return render_template("research/new_study.html", form=form, error=str(error), editing=found), 400
    if work is not None and not preparing.enqueue(current_app, found):
        found.heartbeat_at = None  # not queued: the study page queues it again
        get_session().commit()
    flash("The draft is saved." + (" Its new puzzles are being prepared." if work is not None else ""), "study")
    return redirect(url_for("research.study", study_id=found.id), 303)


@bp.post("/studies/<int:study_id>/phase")
@login_required
def change_phase(study_id: int) -> ResponseReturnValue:
    """Open, pause, close or archive a study (field ``to``)."""
    found = study_for(study_id, "owner")
    was = found.phase
    audit.record_change(get_session(), "phase", found, f"{was} -> {request.form.get('to') or ''}")
    or_409(lambda: lifecycle.move(get_session(), found, request.form.get("to") or ""))
    flash(f"The study is {found.phase} now.", "study")
    return redirect(url_for("research.study", study_id=found.id), 303)


@bp.post("/studies/<int:study_id>/duplicate")
@login_required
def duplicate_study(study_id: int) -> ResponseReturnValue:
    """A new draft with the study's settings, texts and puzzles, no participants; owned by whoever duplicates."""
    found = study_for(study_id)
    copy = or_409(lambda: lifecycle.duplicate(get_session(), found, current_user.id))
    flash(f"A copy of {found.name} is ready as a draft.", "study")
    return redirect(url_for("research.study", study_id=copy.id), 303)


@bp.post("/studies/<int:study_id>/preview")
@login_required
def preview_study(study_id: int) -> ResponseReturnValue:
    """Take the study as a participant would, in a throw-away copy: nothing is stored in the study's data."""
    found = study_for(study_id, "owner")
    copy = or_409(lambda: lifecycle.preview(get_session(), found, current_user.id))
    return redirect(url_for("study.entry", public_id=copy.public_id), 303)


@bp.post("/studies/<int:study_id>/participants/delete")
@login_required
def delete_participant(study_id: int) -> ResponseReturnValue:
    """Delete everything recorded about the participant who arrived with a label (typed, then hashed as stored),
    once the researcher confirmed it."""
    found = study_for(study_id, "owner")
    if request.form.get("confirm") != "yes":
        abort(400, description="Tick the box to confirm the deletion: it cannot be undone.")
    try:
        count = rights.delete_by_label(
            get_session(), found, str(current_app.secret_key or ""), request.form.get("label") or ""
        )
    except studies.StudyError as error:
        abort(404, description=str(error))
    audit.record_change(get_session(), "participant-deleted", found, f"{count} participant(s) with the label typed")
    get_session().commit()
    flash(f"Deleted the data of {count} participant{'s' if count != 1 else ''} with this label.", "study")
    return redirect(url_for("research.study", study_id=found.id), 303)


# The audit trail's pages ----------------------------------------------------------------------------------------------


def audit_page(study: Study | None, csv_url: str) -> str:
    """The trail's page: a study's (every study's for None), its latest SHOWN rows."""
    session, study_id = get_session(), study.id if study is not None else None
    return render_template(
        "research/audit.html",
        rows=audit.rows_of(session, study_id, audit.SHOWN),
        total=audit.count_of(session, study_id),
        study=study,
        actions=audit.ACTIONS,
        csv_url=csv_url,
    )


def audit_download(rows: list[AuditEvent], name: str) -> Response:
    """The trail as a CSV file."""
    return Response(
        audit.csv_text(rows), mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


@bp.get("/studies/<int:study_id>/audit")
@login_required
def study_audit(study_id: int) -> ResponseReturnValue:
    """A study's audit trail (its owners)."""
    found = study_for(study_id, "owner")
    return audit_page(found, url_for("research.study_audit_csv", study_id=found.id))


@bp.get("/studies/<int:study_id>/audit.csv")
@login_required
def study_audit_csv(study_id: int) -> ResponseReturnValue:
    """A study's audit trail as CSV (its owners)."""
    found = study_for(study_id, "owner")
    return audit_download(audit.rows_of(get_session(), found.id), f"study-{found.public_id}-audit.csv")


@bp.get("/audit")
@login_required
def whole_audit() -> ResponseReturnValue:
    """Every row of the audit trail (administrators)."""
    administrator_only("sees the whole audit trail")
    return audit_page(None, url_for("research.audit_csv"))


@bp.get("/audit.csv")
@login_required
def audit_csv() -> ResponseReturnValue:
    """The whole audit trail as CSV (administrators)."""
    administrator_only("sees the whole audit trail")
    return audit_download(audit.rows_of(get_session(), None), "audit.csv")
