"""Reports (docs/PROTOCOL.md §4): a player reports another after a hand they played together
(``POST /api/reports``: a reason from the fixed list, an optional note, a few an hour), and the
console lists the open ones with the hand to replay and closes them with an outcome."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tuolaji.server.api_accounts import AccountsApi
from tuolaji.server.api_console import parsed
from tuolaji.server.http_io import HttpError, path_id
from tuolaji.server.services import Services
from tuolaji.server.staff import StaffGate
from tuolaji.store.reports import ReportError, close, file, listed
from tuolaji.wire.moderation import ReportClosing, ReportRequest

STATES = ("open", "all")


def refused(error: ReportError) -> HttpError:
    """A refused report as its HTTP error (429 with ``Retry-After`` when rate-limited)."""
    headers = {"Retry-After": str(max(1, round(error.retry)))} if error.retry is not None else None
    return HttpError(error.status, error.code, str(error), headers)


class ReportsApi:
    """``POST /api/reports``; ``GET /api/console/reports``, ``POST /api/console/reports/{id}/close``."""

    def __init__(self, services: Services, sessions: AccountsApi, gate: StaffGate) -> None:
        self.db = services.db
        self.sessions = sessions
        self.gate = gate

    async def report(self, request: Request) -> Response:
        """``POST /api/reports``: the bearer reports someone they played a stored hand with."""
        reporter = await self.sessions.bearer(request)
        asked = await parsed(request, ReportRequest.from_json)
        try:
            made = await file(self.db, reporter.id, asked.hand_id, asked.account_id, asked.reason, asked.note)
        except ReportError as error:
            raise refused(error) from None
        return JSONResponse({"report": made}, status_code=201)

    async def reports(self, request: Request) -> Response:
        """``GET /api/console/reports?state=open|all``: reports newest first, the open ones by default."""
        await self.gate.staff(request)
        state = request.query_params.get("state") or "open"
        if state not in STATES:
            raise HttpError(400, "bad_request", f"state must be one of {', '.join(STATES)} (got {state[:40]!r})")
        return JSONResponse({"reports": await listed(self.db, open_only=state == "open")})

    async def close_report(self, request: Request) -> Response:
        """``POST /api/console/reports/{id}/close``: the report closes with an outcome (audited)."""
        staff = await self.gate.staff(request)
        report_id = path_id(request.path_params["id"], "report")
        asked = await parsed(request, ReportClosing.from_json)
        try:
            closed = await close(self.db, staff.actor, report_id, asked.outcome, asked.note)
        except ReportError as error:
            raise refused(error) from None
        staff.did("close_report", target=f"report {report_id}")
        return JSONResponse({"report": closed})
