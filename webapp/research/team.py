"""Researcher accounts and study teams in the web app: an administrator invites and disables accounts, a researcher
changes their password, a study's owners add and remove collaborators (owner or viewer).

An invitation is a link with a random token shown once to the administrator who made it (only its SHA-256 is
stored); whoever opens it within ``INVITE_DAYS`` sets the account's password and is logged in. The command line
(``flask user ...``) keeps working beside these pages.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_user
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash

from ..db import get_session
from ..models import StudyMember, User, utcnow
from . import MIN_PASSWORD, audit, bp, hash_password, login_required, logins
from .access import ROLES, administrator_only, members_of, role_of, study_for

INVITE_DAYS = 7


class TeamError(ValueError):
    """A team change the rules refuse (the message says why, for the page)."""


def token_hash(token: str) -> str:
    """The stored form of an invitation token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def checked_email(text: str) -> str:
    """An email address trimmed and lower-cased, or a TeamError."""
    email = text.strip().lower()
    if "@" not in email or len(email) > 254 or any(c.isspace() for c in email):
        raise TeamError(f"{email!r} is not an email address.")
    return email


def checked_password(password: str, again: str) -> str:
    """A new password typed twice, or a TeamError."""
    if len(password) < MIN_PASSWORD:
        raise TeamError(f"The password needs at least {MIN_PASSWORD} characters.")
    if password != again:
        raise TeamError("The two passwords differ.")
    return password


def invite(session: Session, email: str, admin: bool) -> str:
    """Make an invited account for the email; the invitation's token (shown once)."""
    address = checked_email(email)
    if session.scalar(select(User).where(User.email == address)) is not None:
        raise TeamError(f"There is already an account for {address}.")
    token = secrets.token_urlsafe(32)
    session.add(
        User(
            email=address,
            password_hash=hash_password(secrets.token_hex(32)),  # nobody knows it
            is_admin=admin,
            invite_hash=token_hash(token),
            invite_until=utcnow() + timedelta(days=INVITE_DAYS),
        )
    )
    session.commit()
    return token


def invited(session: Session, token: str) -> User | None:
    """The account an invitation token opens, while it has not lapsed or been used."""
    user = session.scalar(select(User).where(User.invite_hash == token_hash(token)))
    if user is None or user.invite_until is None or user.invite_until < utcnow() or not user.is_active:
        return None
    return user


def set_disabled(session: Session, user: User, disabled: bool) -> None:
    """Disable an account (its log-ins end) or enable it again."""
    if disabled and user.id == current_user.id:
        raise TeamError("You cannot disable your own account.")
    user.disabled_at = utcnow() if disabled else None
    session.commit()
    if disabled:
        logins.end_all(session, user)


def add_member(session: Session, study_id: int, email: str, role: str) -> User:
    """Give the account with this email a role on the study (or change its role)."""
    if role not in ROLES:
        raise TeamError(f"The role must be one of {', '.join(ROLES)}.")
    user = session.scalar(select(User).where(User.email == checked_email(email)))
    if user is None or not user.is_active:
        raise TeamError("There is no active researcher account with this email: an administrator can invite one.")
    study = study_for(study_id, "owner")
    if user.id == study.owner_id:
        raise TeamError("The study's creator is always one of its owners.")
    member = session.get(StudyMember, (study.id, user.id))
    if member is None:
        session.add(StudyMember(study_id=study.id, user_id=user.id, role=role))
    else:
        member.role = role
    audit.record_change(session, "member-added", study, f"{user.email} as {role}")
    session.commit()
    return user


# Pages -----------------------------------------------------------------------------------------------------------


def users_page(
    error: str | None = None, invite_link: str | None = None, status: int = 200, done: str | None = None
) -> ResponseReturnValue:
    """The administrator's page of accounts, with each account's live log-ins."""
    session = get_session()
    accounts = [(user, logins.count(session, user)) for user in session.scalars(select(User).order_by(User.email))]
    page = render_template("research/users.html", accounts=accounts, error=error, invite_link=invite_link, done=done)
    return page, status


@bp.get("/users")
@login_required
def users() -> ResponseReturnValue:
    """Every researcher account with its state (active, invited, disabled), for an administrator."""
    administrator_only("manages researcher accounts")
    return users_page()


@bp.post("/users/invite")
@login_required
def invite_user() -> ResponseReturnValue:
    """Invite a researcher by email: the page shows the invitation link once."""
    administrator_only("manages researcher accounts")
    try:
        token = invite(get_session(), request.form.get("email") or "", request.form.get("admin") == "on")
    except TeamError as error:
        return users_page(error=str(error), status=400)
    return users_page(invite_link=url_for("research.accept_invite", token=token, _external=True))


@bp.post("/users/<int:user_id>/<any(disable, enable, 'end-sessions'):change>")
@login_required
def change_user(user_id: int, change: str) -> ResponseReturnValue:
    """Disable or enable an account, or end all its log-ins."""
    administrator_only("manages researcher accounts")
    session = get_session()
    user = session.get(User, user_id) or abort(404, description="There is no such account.")
    if change == "end-sessions":
        ended = logins.end_all(session, user)
        return users_page(done=f"Ended {ended} log-in(s) of {user.email}.")
    try:
        set_disabled(session, user, change == "disable")
    except TeamError as error:
        return users_page(error=str(error), status=409)
    return users_page()


@bp.route("/invite/<token>", methods=["GET", "POST"])
def accept_invite(token: str) -> ResponseReturnValue:
    """An invitation: set the account's password, then log in."""
    session = get_session()
    user = invited(session, token)
    if user is None:
        abort(404, description="This invitation is unknown, used or past its date: ask an administrator for another.")
    if request.method == "GET":
        return render_template("research/invite.html", user=user, error=None)
    try:
        password = checked_password(request.form.get("password") or "", request.form.get("again") or "")
    except TeamError as error:
        return render_template("research/invite.html", user=user, error=str(error)), 400
    user.password_hash = hash_password(password)
    user.invite_hash = user.invite_until = None
    session.commit()
    login_user(user)
    logins.start(session, user)
    return render_template("research/account.html", error=None, done="Your password is set: welcome."), 200


@bp.route("/account", methods=["GET", "POST"])
@login_required
def account() -> ResponseReturnValue:
    """Change one's password (the current one is asked for)."""
    if request.method == "GET":
        return render_template("research/account.html", error=None, done=None)
    if not check_password_hash(current_user.password_hash, request.form.get("current") or ""):
        return render_template("research/account.html", error="The current password is wrong.", done=None), 401
    try:
        password = checked_password(request.form.get("password") or "", request.form.get("again") or "")
    except TeamError as error:
        return render_template("research/account.html", error=str(error), done=None), 400
    current_user.password_hash = hash_password(password)
    get_session().commit()
    ended = logins.end_others(get_session(), current_user)
    done = "Your password is changed" + (f": your {ended} other log-in(s) ended." if ended else ".")
    return render_template("research/account.html", error=None, done=done)


def team_page(study_id: int, error: str | None = None, status: int = 200) -> ResponseReturnValue:
    """A study's team: everyone's role; for its owners, the forms that change it."""
    session = get_session()
    study = study_for(study_id)
    role = role_of(session, study, current_user)
    page = render_template(
        "research/team.html", study=study, team=members_of(session, study), role=role, roles=ROLES, error=error
    )
    return page, status


@bp.get("/studies/<int:study_id>/team")
@login_required
def team(study_id: int) -> ResponseReturnValue:
    """The study's team page."""
    return team_page(study_id)


@bp.post("/studies/<int:study_id>/team")
@login_required
def add_to_team(study_id: int) -> ResponseReturnValue:
    """Add a collaborator to a study (owners only), or change their role."""
    try:
        user = add_member(get_session(), study_id, request.form.get("email") or "", request.form.get("role") or "")
    except TeamError as error:
        return team_page(study_id, error=str(error), status=400)
    flash(f"{user.email} is on the team.", "team")
    return redirect(url_for("research.team", study_id=study_id), 303)


@bp.post("/studies/<int:study_id>/team/<int:user_id>/remove")
@login_required
def remove_from_team(study_id: int, user_id: int) -> ResponseReturnValue:
    """Take a collaborator off a study (owners only; the creator stays)."""
    session = get_session()
    study = study_for(study_id, "owner")
    member = session.get(StudyMember, (study.id, user_id))
    if member is None:
        return team_page(study_id, error="This account is not a collaborator on the study.", status=404)
    session.delete(member)
    taken = session.get(User, user_id)
    audit.record_change(session, "member-removed", study, taken.email if taken is not None else f"account {user_id}")
    session.commit()
    flash("Taken off the team.", "team")
    return redirect(url_for("research.team", study_id=study_id), 303)
