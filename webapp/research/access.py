"""Who may do what with a study: its creator and its owners change it and its team, its viewers see it.

Every research page that names a study asks ``study_for`` with the role its action needs. A researcher with no role
on a study gets 404, as for a study that does not exist (the page does not tell whether it does); a viewer who asks
for an owner's action gets 403 with a message; so does a researcher who is no administrator on an administrator's
page (``administrator_only``).
"""

from __future__ import annotations

from flask import abort
from flask_login import current_user
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db import get_session
from ..models import Study, StudyMember, User

ROLES = ("viewer", "owner")  # weakest first
CREATOR = "owner"


def administrator_only(what: str) -> None:
    """403 unless the logged-in researcher is an administrator; the message says who may do ``what``."""
    if not current_user.is_admin:
        abort(403, description=f"Only an administrator {what}.")


def role_of(session: Session, study: Study, user: User) -> str | None:
    """The user's role on the study (its creator is an owner), or None."""
    if study.owner_id == user.id:
        return CREATOR
    member = session.get(StudyMember, (study.id, user.id))
    return member.role if member is not None else None


def allows(role: str | None, needed: str) -> bool:
    """Whether a role is at least the one needed."""
    return role is not None and ROLES.index(role) >= ROLES.index(needed)


def study_for(study_id: int, needed: str = "viewer") -> Study:
    """The study with this id if the logged-in researcher has at least the role needed on it; else 404 (no role) or
    403 (a weaker role)."""
    session = get_session()
    study = session.get(Study, study_id)
    role = role_of(session, study, current_user) if study is not None else None
    if study is None or role is None:
        abort(404, description="There is no study of yours with this number.")
    if not allows(role, needed):
        abort(403, description="Viewers of a study may see it but not change it: ask one of its owners.")
    return study


def studies_of(session: Session, user: User) -> list[tuple[Study, str]]:
    """The studies the user has a role on, newest first, each with the role."""
    created = session.scalars(select(Study).where(Study.owner_id == user.id))
    joined = session.execute(
        select(Study, StudyMember.role)
        .join(StudyMember, StudyMember.study_id == Study.id)
        .where(StudyMember.user_id == user.id)
    )
    found = [(study, CREATOR) for study in created] + [(study, str(role)) for study, role in joined]
    return sorted(found, key=lambda item: -item[0].id)


def members_of(session: Session, study: Study) -> list[tuple[User, str]]:
    """The study's team: its creator first, then the collaborators by email."""
    creator = session.get(User, study.owner_id)
    rows = session.execute(
        select(User, StudyMember.role)
        .join(StudyMember, StudyMember.user_id == User.id)
        .where(StudyMember.study_id == study.id)
        .order_by(User.email)
    )
    return ([(creator, CREATOR)] if creator is not None else []) + [(user, str(role)) for user, role in rows]
