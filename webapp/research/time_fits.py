"""The time model's page and commands: the version in force beside the engine's prior, the history of versions, a
fit started now and a rollback (administrators), and ``flask calibration fit | list | use``.

A fit over every game runs as a job on the queue (``webapp.games.learning``), never inside a request.
"""

from __future__ import annotations

import math

import click
from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask.cli import AppGroup
from flask.typing import ResponseReturnValue

from .. import jobs
from ..db import get_session, sessions_of
from ..games import calibration, learning
from ..validation import INTEGER_COLUMN_MAX, bounded_int
from . import audit, bp, login_required
from .access import administrator_only

calibration_cli = AppGroup("calibration", help="The time model's versions: fit over every game, list, roll back.")


@bp.get("/time-model")
@login_required
def time_model() -> ResponseReturnValue:
    """The version in force beside the prior, with its check and plot, and the history of versions."""
    session = get_session()
    model = calibration.in_force(session)
    return render_template(
        "research/time_model.html",
        model=model,
        zone_factors={zone: math.exp(scale) for zone, scale in model.zones.items()},
        versions=learning.versions(session),
        every_s=current_app.config["TIME_FIT_EVERY_S"],
        min_finished=learning.MIN_FINISHED,
    )


@bp.post("/time-model/fit")
@login_required
def fit_now() -> ResponseReturnValue:
    """Queue a fit over every game now (administrators)."""
    administrator_only("fits or rolls back the time model")
    if jobs.enqueue(current_app._get_current_object(), learning.JOB, learning.FORCED):  # type: ignore[attr-defined]
        audit.record_change(get_session(), "time-model-fit", None, "over every game")
        get_session().commit()
        flash("A fit of the time model is queued: this page shows it once it is done.", "time-model")
    else:
        flash("The job queue cannot be reached: try again in a moment.", "time-model")
    return redirect(url_for("research.time_model"), 303)


@bp.post("/time-model/use")
@login_required
def use_version() -> ResponseReturnValue:
    """Put a version in force again, or the prior alone (``version`` = "prior"; administrators)."""
    administrator_only("fits or rolls back the time model")
    chosen = request.form.get("version", "")
    version_id = None if chosen == "prior" else parse_version(chosen)
    try:
        used = learning.roll_back(get_session(), version_id)
    except ValueError as error:
        abort(409, description=str(error))
    audit.record_change(get_session(), "time-model-used", None, f"version {chosen}")
    get_session().commit()
    flash(f"In force now: {calibration.in_force(get_session()).description}.", "time-model")
    if used is None:
        flash("Only the engine's prior is in force.", "time-model")
    return redirect(url_for("research.time_model"), 303)


def parse_version(text: str) -> int:
    """A version id from a form, or 400."""
    try:
        return bounded_int(text, 1, INTEGER_COLUMN_MAX)
    except ValueError:
        abort(400, description="Choose a version by its number, or the prior.")


@calibration_cli.command("fit")
def fit_command() -> None:
    """Fit the time model over every game now (in this process) and put it in force when it passes its checks."""
    with sessions_of(current_app)() as session:
        outcome = learning.fit_now(session)
        if isinstance(outcome, str):
            raise click.ClickException(f"No fit: {outcome}.")
        if outcome.state != "done":
            raise click.ClickException(f"Fit {outcome.id} failed: {outcome.problem}. The version in force stays.")
        click.echo(
            f"Fit {outcome.id} is in force: {outcome.games} games of {outcome.players} players, {outcome.puzzles} "
            f"puzzles, residual SD {outcome.sigma:.3f}."
        )


@calibration_cli.command("list")
def list_command() -> None:
    """List the time model's versions, newest first."""
    with sessions_of(current_app)() as session:
        rows = learning.versions(session)
        if not rows:
            click.echo("No version yet: the engine's prior is in force.")
        for row in rows:
            mark = "*" if row.active else " "
            made = row.created_at.strftime("%Y-%m-%d %H:%M")
            click.echo(
                f"{mark} {row.id:>4} {made} {row.model:<8} {row.state:<8} games {row.games:>6} players {row.players:>5}"
                + (f"  {row.problem}" if row.problem else "")
            )


@calibration_cli.command("use")
@click.argument("version")
def use_command(version: str) -> None:
    """Put VERSION (a number from `list`, or `prior` for the engine's prior alone) in force again."""
    if version != "prior" and not version.isdigit():
        raise click.UsageError("VERSION is a number from `flask calibration list`, or `prior`.")
    with sessions_of(current_app)() as session:
        try:
            learning.roll_back(session, None if version == "prior" else int(version))
        except ValueError as error:
            raise click.ClickException(str(error)) from None
        click.echo(f"In force: {calibration.in_force(session).description}.")
