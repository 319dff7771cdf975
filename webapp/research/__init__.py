"""The researcher side: login, studies, progress, exports and the validation report.

This module holds the ``research`` blueprint, its login and the ``flask user`` and ``flask study`` commands;
``views`` adds the pages, ``manage`` a study's management pages, ``participants`` one participant at a time,
``team`` accounts and a study's team, ``time_fits`` the time model's page and the ``flask calibration`` commands;
over the services ``exports`` (its answers in ``answers``, its columns in ``codebook``), ``report`` (its statistics
in ``analysis``) and ``report_cache``, ``access`` (who may see or change a study), ``audit`` (the audit trail) and
``logins`` (log-ins kept on the server)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

import click
import flask_login
from flask import Blueprint, Flask, current_app
from flask.cli import AppGroup
from flask_login import LoginManager
from sqlalchemy import select
from werkzeug.security import generate_password_hash

from sudoku_engine.slider import SliderInfo

from ..db import get_session, sessions_of
from ..games.calibration import slider_description
from ..models import Study, User, utcnow
from ..validation import INTEGER_COLUMN_MAX
from . import logins

bp = Blueprint("research", __name__, url_prefix="/research")
login_manager = LoginManager()
login_manager.login_view = "research.login"
login_manager.login_message = "Please log in to see your studies."
# Each message is shown by the page it was made for (its category), never by whichever page comes next.
login_manager.login_message_category = "login"
user_cli = AppGroup("user", help="Researcher accounts.")
study_cli = AppGroup("study", help="Solve-time studies.")
MIN_PASSWORD = 8
View = TypeVar("View", bound=Callable[..., object])


def hash_password(password: str) -> str:
    """The password's hash by the app's method (``PASSWORD_HASH_METHOD``, scrypt unless the app is told otherwise)."""
    return generate_password_hash(password, method=current_app.config["PASSWORD_HASH_METHOD"])


def login_required(view: View) -> View:
    """Flask-Login's ``login_required`` with the view's type kept (Flask-Login ships no type hints)."""
    return cast(View, flask_login.login_required(view))


def init_app(app: Flask) -> None:
    """Register the login manager, the blueprint and the ``flask user`` commands."""
    login_manager.init_app(app)
    app.register_blueprint(bp)
    app.cli.add_command(user_cli)
    app.cli.add_command(study_cli)
    app.cli.add_command(time_fits.calibration_cli)
    app.jinja_env.globals["slider_scale"] = slider_scale


SCALE_STEP = 10  # the study form's table of what slider values mean: every tenth value


def slider_scale() -> list[SliderInfo]:
    """What the slider values 0, 10, ..., 100 ask for (zone, target D, a typical player's minutes under the time
    model in force), for the study form."""
    session = get_session()
    return [slider_description(session, value) for value in range(0, 101, SCALE_STEP)]


def load_user(user_id: str) -> User | None:
    """The logged-in researcher of a session: None once its log-in has ended on the server (``logins``) or the
    account is disabled."""
    session = get_session()
    user = session.get(User, int(user_id)) if user_id.isdigit() else None
    if user is None or not user.is_active or not logins.is_live(session, user.id):
        return None
    return user


login_manager.user_loader(load_user)


@user_cli.command("create")
@click.argument("email")
@click.password_option("--password", help="The password (asked for, hidden, when not given).")
@click.option("--admin", is_flag=True, help="An administrator: manages researcher accounts in the web app.")
def create_user(email: str, password: str, admin: bool) -> None:
    """Create a researcher account with this email and password."""
    email = email.strip().lower()
    if "@" not in email or len(email) > 254:
        raise click.UsageError(f"{email!r} is not an email address.")
    if len(password) < MIN_PASSWORD:
        raise click.UsageError(f"The password needs at least {MIN_PASSWORD} characters.")
    with sessions_of(current_app)() as session:
        if session.scalar(select(User).where(User.email == email)) is not None:
            raise click.UsageError(f"There is already an account for {email}.")
        session.add(User(email=email, password_hash=hash_password(password), is_admin=admin))
        session.commit()
    if admin:
        click.echo(f"Created the administrator account {email}.")
    else:
        click.echo(
            f"Created the researcher account {email}: not an administrator (it sees its own studies only); "
            f"`flask user set {email} --admin` makes it one."
        )


@user_cli.command("set")
@click.argument("email")
@click.option("--admin/--no-admin", default=None, help="Make the account an administrator, or not.")
@click.option("--disabled/--enabled", default=None, help="Disable the account (its log-ins end), or enable it.")
@click.option("--end-sessions", is_flag=True, help="End every log-in of the account (it logs in again).")
def set_user(email: str, admin: bool | None, disabled: bool | None, end_sessions: bool) -> None:
    """Change an account: administrator or not, disabled or not; end its log-ins."""
    with sessions_of(current_app)() as session:
        user = session.scalar(select(User).where(User.email == email.strip().lower()))
        if user is None:
            raise click.UsageError(f"There is no account for {email}.")
        if admin is not None:
            user.is_admin = admin
        if disabled is not None:
            user.disabled_at = utcnow() if disabled else None
        session.commit()
        ended = logins.end_all(session, user) if end_sessions or disabled else 0
        state = "disabled" if user.disabled_at else "active"
        click.echo(
            f"{user.email}: {'administrator' if user.is_admin else 'researcher'}, {state}"
            + (f"; {ended} log-in(s) ended." if end_sessions or disabled else ".")
        )


@study_cli.command("report")
@click.argument("study_id", type=click.IntRange(1, INTEGER_COLUMN_MAX))
def report_command(study_id: int) -> None:
    """Print a study's validation report: puzzles, ratings against mean log time, the model, Table II."""
    from ..study import rights
    from . import report

    with sessions_of(current_app)() as session:
        study = session.get(Study, study_id)
        if study is None:
            raise click.UsageError(f"There is no study {study_id}.")
        built = report.build(session, study, plots=False)
        for line in report.text_lines(built):
            click.echo(line)
        withdrawn = rights.withdrawals(session, study)
        click.echo(
            f"Withdrawn: {withdrawn.kept} with their data kept; {withdrawn.deleted_on_withdrawal} withdrew and had "
            f"their data deleted, {withdrawn.deleted_on_request} had it deleted on request (absent from the report)."
        )


from . import audit, manage, participants, team, time_fits, views  # noqa: E402, F401  (views register their routes on bp)
