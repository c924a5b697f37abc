"""Writes openapi.json, the OpenAPI 3.1 document of every /api route (served at /api/openapi.json).

Run: python3 server/openapi/generate.py   (the output is committed; TestOpenAPICoversEveryRoute
fails when a route has no document or a document no route)."""
import json, os

def ref(name): return {"$ref": f"#/components/schemas/{name}"}
def arr(x): return {"type": "array", "items": x}
S, N, I, B = {"type": "string"}, {"type": "number"}, {"type": "integer"}, {"type": "boolean"}
def nullable(t): return {"type": [t["type"], "null"]} if "type" in t else {"oneOf": [t, {"type": "null"}]}
def obj(props, required=()): 
    o = {"type": "object", "properties": props}
    if required: o["required"] = list(required)
    return o

schemas = {
  "Error": obj({"error": obj({"code": S, "message": S, "fields": {"type": "object", "additionalProperties": S}}, ["code", "message"])}, ["error"]),
  "Step": obj({"title": S, "description": S, "priority": {"enum": ["high", "medium", "low"]}}, ["title", "description", "priority"]),
  "Question": obj({"id": S, "text": S}),
  "Answers": {"type": "object", "maxProperties": 2, "additionalProperties": {"enum": ["yes", "no", "unsure"]},
              "description": "narrow-it-down answers by question id (true and false still read as yes and no)"},
  "AIResult": obj({"summary": S, "steps": arr(ref("Step")), "additionalTips": arr(S),
                   "questions": {"type": "array", "maxItems": 2, "items": ref("Question"), "description": "at most two, answered ones first"},
                   "answers": ref("Answers"),
                   "engine": {"enum": ["built-in", "gemini", "openai", "fallback"], "description": "who answered: the built-in engine, Gemini, the operator's OpenAI-compatible model, or the built-in engine after the model failed"},
                   "model": {"type": "string", "description": "the remote model that answered, or with engine fallback the one that failed"},
                   "fallbackFrom": {"enum": ["gemini", "openai"], "description": "with engine fallback: the engine that failed"},
                   "refineToken": S,
                   "signature": {"type": "string", "description": "lets this result be shared (POST /api/share-results)"}}, ["summary", "steps", "additionalTips"]),
  "SlicerSettings": obj({k: N for k in ["nozzleDiameter", "retractionLength", "retractionSpeed", "firstLayerHeight", "firstLayerSpeed",
                                        "fanSpeed", "pressureAdvance", "wallSpeed", "travelSpeed", "acceleration"]} | {"slicer": S}),
  "AttachmentInput": obj({"name": {"type": "string", "maxLength": 100, "description": "a plain file name without folders, e.g. klippy.log"},
                          "text": {"type": "string", "description": "UTF-8 text; binary (control characters other than tab, line breaks, form feed, escape) is refused"}},
                         ["name", "text"]),
  "Attachments": {"type": "array", "maxItems": 4, "items": {"$ref": "#/components/schemas/AttachmentInput"},
                  "description": "the printer's own text files (logs, configs, settings dumps): at most 4 and 256 KB of text in all (413 over); "
                                 "secrets (passwords, tokens, API keys, Wi-Fi and MQTT credentials) are removed before analysis and storage"},
  "Attachment": obj({"name": S, "kind": {"enum": ["klipper-log", "rrf-m122", "prusa", "marlin-config", "rrf-config", "moonraker-config",
                                                  "klipper-config", "gcode", "marlin-m503", "serial-log", "text"]},
                     "label": {"type": "string", "description": "what the file was recognised as, e.g. Klipper log"}, "bytes": I}),
  "Category": {"enum": ["first-layer", "bed-adhesion", "stringing", "layer-quality", "support-issues", "extrusion-issues",
                        "mechanical-problems", "heating-issues", "calibration", "other"]},
  "Profile": obj({"id": I, "firebaseUid": nullable(S), "email": S, "displayName": S, "emailVerified": B, "subscriptionStatus": S,
                  "subscriptionTier": {"enum": ["free", "hobby", "pro", "farm"]}, "monthlyUsage": I, "monthlyLimit": I, "usageResetsAt": S}),
  "Session": obj({"token": S, "expiresAt": {"type": "string", "format": "date-time"}, "user": ref("Profile")}, ["token", "expiresAt", "user"]),
  "HostInput": obj({"kind": {"enum": ["moonraker", "octoprint", "prusalink"]},
                    "url": {"type": "string", "maxLength": 300, "description": "http(s)://address[:port][/prefix], no user name, query or fragment"},
                    "apiKey": {"type": ["string", "null"], "maxLength": 256, "description": "missing or null: keep the saved key (same kind and origin only); \"\": remove it; OctoPrint and PrusaLink need one"}},
                   ["kind", "url"]),
  "Host": obj({"kind": {"enum": ["moonraker", "octoprint", "prusalink"]}, "url": S, "hasApiKey": {"type": "boolean", "description": "a key is saved; the key itself is never returned"}}),
  "PrinterInput": obj({"name": S, "brand": S, "nozzleSize": nullable(N), "filamentDiameter": nullable(N), "buildVolume": nullable(S),
                       "host": {"oneOf": [ref("HostInput"), {"type": "null"}], "description": "missing: keep the printer's host; null: unlink it"}}, ["name", "brand"]),
  "Printer": obj({"id": I, "userId": I, "name": S, "brand": S, "nozzleSize": N, "filamentDiameter": N, "buildVolume": nullable(S), "createdAt": S,
                  "host": {"oneOf": [ref("Host"), {"type": "null"}]}}),
  "PullResult": obj({"kind": S, "software": S, "state": S, "message": S,
                     "job": obj({"file": S, "status": S, "reason": S}),
                     "form": obj({"category": ref("Category"), "material": S, "nozzleTemp": N, "bedTemp": N, "layerHeight": N, "infill": N, "slicerSettings": ref("SlicerSettings")}),
                     "attachments": {"type": "array", "maxItems": 4, "items": ref("AttachmentInput"), "description": "as the analysis calls take them, secrets stripped, 256 KB of text at most"},
                     "summary": {"type": "string", "description": "what the printer says, for the maker to review"},
                     "notes": arr(S)}),
  "PrinterStats": obj({"printerId": I, "name": S, "brand": S, "total": I, "pending": I, "inProgress": I, "resolved": I}),
  "IssueInput": obj({"printerId": nullable(I), "category": ref("Category"), "description": S, "material": nullable(S),
                     "nozzleTemp": nullable(N), "bedTemp": nullable(N), "layerHeight": nullable(N), "printSpeed": nullable(N),
                     "infill": nullable(N), "photoUrls": arr(S), "slicerSettings": ref("SlicerSettings"), "attachments": ref("Attachments")}, ["category", "description"]),
  "Issue": obj({"id": I, "userId": I, "printerId": nullable(I), "category": {"type": "string", "description": "the maker's choice"},
                "diagnosedCategory": {"type": ["string", "null"], "description": "the category the analysis diagnosed; null when none (or saved before it was kept). "
                                      "Lists, filters and statistics use the maker's choice unless it is 'other', then this"},
                "description": S, "material": nullable(S),
                "nozzleTemp": nullable(N), "bedTemp": nullable(N), "layerHeight": nullable(N), "printSpeed": nullable(N), "infill": nullable(N),
                "photoUrls": arr(S), "aiChecklist": ref("AIResult"), "status": {"enum": ["pending", "in-progress", "resolved"]},
                "resolvedAt": nullable(S), "workingRecommendations": arr(S), "resolutionNotes": nullable(S), "checkedSteps": arr(S),
                "createdAt": S, "printer": {"oneOf": [obj({"name": S, "brand": S}), {"type": "null"}]}, "attachmentCount": I,
                "attachments": {"type": "array", "items": ref("Attachment"), "description": "on one issue's answers only; the text is at /api/issues/{id}/attachments/{n}"}}),
  "TroubleshootInput": obj({"category": ref("Category"), "description": S, "material": nullable(S), "nozzleTemp": nullable(N),
                            "bedTemp": nullable(N), "layerHeight": nullable(N), "printSpeed": nullable(N), "infill": nullable(N),
                            "printerBrand": S, "images": arr({"type": "string", "description": "base64 JPEG or PNG, at most 5"}),
                            "screenDimensions": obj({"width": N, "height": N}), "slicerSettings": ref("SlicerSettings"), "attachments": ref("Attachments")},
                           ["category", "description", "printerBrand"]),
  "Subscription": obj({"billingEnabled": B, "tier": S, "status": S, "effectiveTier": S, "hasSubscription": B,
                       "currentPeriodEnd": nullable(S), "cancelAtPeriodEnd": B}),
}

def body(schema, ctype="application/json"): return {"required": True, "content": {ctype: {"schema": schema}}}
def ok(schema=None, desc="OK", ctype="application/json", code="200"):
    r = {"description": desc}
    if schema is not None: r["content"] = {ctype: {"schema": schema}}
    return {code: r}
def errs(*codes):
    words = {"400": "Invalid input (code VALIDATION_ERROR or a named code, with fields)", "401": "Not signed in or the session ended",
             "402": "Payment needed", "403": "Not allowed (e.g. email not verified when required, PRINTER_LINK_OFF, HOST_NOT_ALLOWED)", "404": "Not found, or not yours",
             "409": "Conflict (e.g. the state does not allow it)", "413": "Request entity too large", "415": "Not application/json",
             "429": "Too many requests, or the monthly allowance is used up (PUBLIC_USAGE_LIMIT_EXCEEDED, USAGE_LIMIT_EXCEEDED, BUSY)",
             "503": "A provider (Gemini, Stripe) is unavailable, or billing is off"}
    return {c: {"description": words[c], "content": {"application/json": {"schema": ref("Error")}}} for c in codes}
def op(summary, responses, req=None, auth=True, params=None, tags=None):
    o = {"summary": summary, "responses": responses}
    if req: o["requestBody"] = req
    if auth is None: o["security"] = [{}, {"bearer": []}]  # optional
    elif auth: o["security"] = [{"bearer": []}]
    else: o["security"] = []
    if params: o["parameters"] = params
    if tags: o["tags"] = tags
    return o
def p(name, where="path", schema=S, desc=None):
    d = {"name": name, "in": where, "required": where == "path", "schema": schema}
    if desc: d["description"] = desc
    return d
ID = [p("id", schema=I)]
answers = body(obj({"answers": ref("Answers")}, ["answers"]))

paths = {
 "/api/auth/signup": {"post": op("Create a local account (local mode) and start a session", ok(ref("Session"), "Created", code="201") | errs("400", "409", "415", "429"),
                       body(obj({"email": S, "password": S, "displayName": S}, ["email", "password", "displayName"])), auth=False, tags=["auth"])},
 "/api/auth/login": {"post": op("Sign in with email and password (local mode)", ok(ref("Session")) | errs("400", "401", "415", "429"),
                      body(obj({"email": S, "password": S}, ["email", "password"])), auth=False, tags=["auth"])},
 "/api/auth/logout": {"post": op("End this session", ok(None, "Signed out", code="204") | errs("401"), tags=["auth"])},
 "/api/auth/password-reset": {"post": op("Email a one-hour password reset link (always answers the same)", ok(obj({"emailEnabled": B}), "Accepted: a link was sent if the account exists and email is configured", code="202") | errs("400", "415", "429"),
                               body(obj({"email": S}, ["email"])), auth=False, tags=["auth"])},
 "/api/auth/password-update": {"post": op("Set a new password with a reset code; ends every other session", ok(obj({"message": S})) | errs("400", "415", "429"),
                                body(obj({"oobCode": S, "password": S}, ["oobCode", "password"])), auth=False, tags=["auth"])},
 "/api/auth/verify-email": {"post": op("Confirm an email address with its code (a sign-up's, or an email change's: the account then takes the new address)", ok(obj({"message": S})) | errs("400", "409", "415"),
                             body(obj({"oobCode": S}, ["oobCode"])), auth=False, tags=["auth"])},
 "/api/user/profile": {"get": op("The signed-in maker's profile, plan and usage", ok(ref("Profile")) | errs("401"), tags=["account"]),
                       "patch": op("Change the display name (the sign-up rules); answers the profile", ok(ref("Profile")) | errs("400", "401", "415"),
                                   body(obj({"displayName": {"type": "string", "maxLength": 100}}, ["displayName"])), tags=["account"])},
 "/api/user/password": {"post": op("Change the password (local mode): the current one, checked under the sign-in limits, then a new one by the sign-up rules; "
                                   "every other session and reset link ends", ok(obj({"message": S})) | errs("400", "401", "415", "429"),
                                   body(obj({"currentPassword": S, "newPassword": S}, ["currentPassword", "newPassword"])), tags=["account"])},
 "/api/user/email": {"post": op("Change the email (local mode) with the current password: with email configured a link goes to the new address and the "
                                "change takes effect when it is opened (202, pending); without email it takes effect at once, unverified (200)",
                                ok(obj({"email": S, "pending": B, "message": S})) | ok(obj({"email": S, "pending": B, "message": S}), "Accepted: a confirmation link was sent", code="202")
                                | errs("400", "401", "409", "415", "429"),
                                body(obj({"newEmail": S, "currentPassword": S}, ["newEmail", "currentPassword"])), tags=["account"])},
 "/api/user/data": {"get": op("Download my data: a zip (streamed) of account.json, printers.json, issues.json (with attachments and photo names) and photos/",
                              ok({"type": "string", "contentMediaType": "application/zip"}, ctype="application/zip") | errs("401", "429"), tags=["account"])},
 "/api/user": {"delete": op("Delete my account with its printers, issues, photos and sessions; a live subscription is canceled first. Local mode: the password; "
                            "Firebase mode: an ID token from a sign-in at most 5 minutes old (403 requires-recent-login otherwise)",
                            ok(obj({"deleted": B, "subscriptionCanceled": B, "identityDeleted": {"type": "boolean", "description": "Firebase mode: the server deleted the "
                                    "Firebase account (false without Google credentials: the client deletes it)"}, "message": S}))
                            | errs("400", "401", "403", "415", "429", "503"),
                            {"required": False, "content": {"application/json": {"schema": obj({"password": {"type": "string", "description": "local mode"}})}}},
                            tags=["account"])},
 "/api/transfer-usage": {"post": op("Move this address's anonymous usage into an account created by this sign-up", ok(obj({"transferred": I})) | errs("401"), tags=["account"])},
 "/api/usage-limits": {"get": op("Monthly allowance per plan", ok({"type": "object", "additionalProperties": obj({"name": S, "limit": I})}), auth=False, tags=["plans"])},
 "/api/pricing": {"get": op("Monthly price per plan in USD", ok(arr(obj({"tier": S, "amount": N}))), auth=False, tags=["plans"])},
 "/api/public-usage": {"get": op("This address's anonymous analyses this month, and when they reset (the 1st of next month, UTC)",
                                ok(obj({"currentUsage": I, "resetsAt": {"type": "string", "format": "date-time"}})), auth=False, tags=["troubleshoot"])},
 "/api/troubleshoot": {"post": op("Anonymous analysis (one of the monthly free credits); its refineToken binds the inputs for 24 hours "
                                  "(narrow the result down, or save it to an account after sign-up)", ok(ref("AIResult")) | errs("400", "413", "415", "429", "503"),
                        body(ref("TroubleshootInput")), auth=False, tags=["troubleshoot"])},
 "/api/troubleshoot/refine": {"post": op("Re-rank an anonymous result with narrow-it-down answers (no credit); send the analysis's inputs and attachments again, the token binds them",
                                        ok(ref("AIResult")) | errs("400", "403", "404", "413", "415"),
                               body({"allOf": [ref("TroubleshootInput"), obj({"answers": ref("Answers"), "refineToken": S}, ["answers", "refineToken"])]}),
                               auth=False, tags=["troubleshoot"])},
 "/api/share-results": {"post": op("Share a result this server made; returns the share id", ok(obj({"shareId": S}), code="201") | errs("400", "415", "429"),
                         body(obj({"troubleshootingData": ref("AIResult"), "signature": {"type": "string", "description": "the signature the analysis came with"},
                                   "title": {"type": "string", "deprecated": True, "description": "ignored: the server titles a guide from its summary"}},
                                  ["troubleshootingData", "signature"])), auth=False, tags=["share"])},
 "/api/share/{shareId}": {"get": op("A shared result", ok(obj({"title": {"type": "string", "description": "the summary's first 50 characters, cut at a word"},
                                                                "troubleshootingData": ref("AIResult"), "createdAt": S})) | errs("404"),
                           auth=False, params=[p("shareId")], tags=["share"])},
 "/api/printers": {"get": op("The maker's printers", ok(arr(ref("Printer"))) | errs("401"), tags=["workspace"]),
                   "post": op("Add a printer", ok(ref("Printer"), code="201") | errs("400", "401", "415"), body(ref("PrinterInput")), tags=["workspace"])},
 "/api/printers/{id}": {"put": op("Update a printer", ok(ref("Printer")) | errs("400", "401", "404", "415"), body(ref("PrinterInput")), params=ID, tags=["workspace"]),
                        "delete": op("Delete a printer (its issues keep their history)", ok(obj({"id": I, "deleted": B})) | errs("401", "404"), params=ID, tags=["workspace"])},
 "/api/printers/{id}/pull": {"post": op("Diagnose the last print: ask the printer's host for the last job, its settings, the config and the log's end (LAYERFIX_PRINTER_LINK=on only)",
                             ok(ref("PullResult")) | errs("400", "401", "403", "404", "409", "429") |
                             {"502": {"description": "The host did not answer, refused the key or answered something unexpected (HOST_UNREACHABLE, HOST_REFUSED_KEY, HOST_BAD_ANSWER)",
                                      "content": {"application/json": {"schema": ref("Error")}}}},
                             params=ID, tags=["workspace"])},
 "/api/printers/stats": {"get": op("Issue counts per printer", ok(obj({"printers": arr(ref("PrinterStats"))})) | errs("401"), tags=["workspace"])},
 "/api/printers/{id}/stats": {"get": op("One printer's issue counts and most frequent categories", ok(ref("PrinterStats")) | errs("401", "404"), params=ID, tags=["workspace"])},
 "/api/upload-images": {"post": op("Upload up to 5 photos (multipart, repeated 'images')", ok(obj({"images": arr(obj({"url": S}))})) | errs("400", "401", "413", "429"),
                         body(obj({"images": arr({"type": "string", "contentMediaType": "image/*"})}), "multipart/form-data"), tags=["workspace"])},
 "/api/photos/{name}": {"get": op("A photo, for its owner (bearer token) or a valid signed URL; anyone else gets 404", ok({"type": "string", "contentMediaType": "image/jpeg"}, ctype="image/jpeg") | errs("404"), auth=None,
                                  params=[p("name"), p("sig", "query", desc="signature of a photo URL"), p("exp", "query", desc="expiry of a photo URL")], tags=["workspace"]),
                        "head": op("A photo's headers", ok(None) | errs("404"), auth=None, params=[p("name"), p("sig", "query"), p("exp", "query")], tags=["workspace"])},
 "/api/issues": {"get": op("The maker's issues with their printer, newest first: with no parameter the whole log as one array, streamed as it is read "
                           "(memory stays bounded whatever its length); with any page parameter one page",
                         ok({"oneOf": [arr(ref("Issue")), obj({"items": arr(ref("Issue")), "nextCursor": nullable(S), "total": I}, ["items", "nextCursor", "total"])]}) | errs("400", "401"),
                         params=[p("limit", "query", I, "1-200, default 50"), p("cursor", "query", S, "nextCursor of the previous page"),
                                 p("status", "query", {"enum": ["all", "open", "pending", "in-progress", "resolved"]}),
                                 p("printer", "query", S, "printer name; 'Unknown Printer' for issues without one"),
                                 p("category", "query", ref("Category"), "the shown category: the maker's choice, or the diagnosed one for 'other'"), p("from", "query", {"type": "string", "format": "date-time"}),
                                 p("to", "query", {"type": "string", "format": "date-time"}), p("q", "query", S, "text in the description or resolution notes")],
                         tags=["issues"]),
                 "post": op("Report an issue: analysis, one credit", ok(ref("Issue"), code="201") | errs("400", "401", "403", "404", "413", "415", "429", "503"), body(ref("IssueInput")), tags=["issues"])},
 "/api/issues/from-analysis": {"post": op("Save an anonymous analysis to the account just created (no new analysis, no credit): the analysed inputs, "
                                           "the result with its signature and the refineToken that binds the inputs (24 hours), photos uploaded with "
                                           "/api/upload-images; once per analysis; the form's printer becomes one of the account's printers",
                                           ok(ref("Issue"), code="201") | errs("400", "401", "403", "404", "409", "413", "415"),
                                           body({"allOf": [ref("TroubleshootInput"), obj({"result": ref("AIResult"), "signature": S, "refineToken": S, "photoUrls": arr(S)},
                                                                                      ["result", "signature", "refineToken"])]}), tags=["issues"])},
 "/api/issues/summary": {"get": op("The dashboard's counts by status and the 5 newest issues", ok(obj({"total": I, "open": I, "pending": I, "inProgress": I, "resolved": I, "recent": arr(ref("Issue"))})) | errs("401"), tags=["issues"])},
 "/api/issues/export": {"get": op("Every issue of the maker as CSV or JSON (streamed)", ok({"type": "string"}, ctype="text/csv") | errs("400", "401"),
                                  params=[p("format", "query", {"enum": ["csv", "json"]})], tags=["issues"])},
 "/api/issues/{id}": {"get": op("One issue", ok(ref("Issue")) | errs("401", "404"), params=ID, tags=["issues"])},
 "/api/issues/{id}/attachments/{n}": {"get": op("The text of an attachment of the maker's issue (secrets removed), as a download; another maker's is 404",
                                                ok({"type": "string"}, ctype="text/plain") | errs("401", "404"),
                                                params=ID + [p("n", schema=I, desc="its place in the issue's attachments, from 0")], tags=["issues"])},
 "/api/issues/{id}/progress": {"patch": op("Mark a pending issue in progress", ok(ref("Issue")) | errs("401", "404", "409"), params=ID, tags=["issues"])},
 "/api/issues/{id}/resolve": {"patch": op("Resolve an issue with the steps that worked", ok(ref("Issue")) | errs("400", "401", "404", "409", "415"),
                               body(obj({"workingRecommendations": arr(S), "resolutionNotes": nullable(S)})), params=ID, tags=["issues"])},
 "/api/issues/{id}/checked-steps": {"put": op("Store the ticked steps of an issue", ok(ref("Issue")) | errs("400", "401", "404", "415"),
                                     body(obj({"checkedSteps": arr(S)}, ["checkedSteps"])), params=ID, tags=["issues"])},
 "/api/issues/{id}/refine": {"post": op("Re-rank a saved issue's steps with narrow-it-down answers (no credit)", ok(ref("Issue")) | errs("400", "401", "404", "409", "415"),
                              answers, params=ID, tags=["issues"])},
 "/api/subscription": {"get": op("The maker's plan and subscription state", ok(ref("Subscription")) | errs("401"), tags=["billing"])},
 "/api/create-subscription": {"post": op("Start a subscription; a client secret to confirm payment", ok(obj({"clientSecret": nullable(S), "subscribed": B, "tier": S})) | errs("400", "401", "415", "503"),
                               body(obj({"tier": {"enum": ["hobby", "pro", "farm"]}}, ["tier"])), tags=["billing"])},
 "/api/complete-subscription": {"post": op("Finish a subscription after payment confirmation", ok(obj({"status": S, "tier": S, "requiresAction": B})) | errs("400", "401", "415", "503"),
                                 body(obj({"setupIntentId": S}, ["setupIntentId"])), tags=["billing"])},
 "/api/change-subscription": {"post": op("Change plan", ok(obj({"message": S, "tier": S, "status": S})) | errs("400", "401", "409", "415", "503"),
                               body(obj({"newTier": {"enum": ["hobby", "pro", "farm"]}}, ["newTier"])), tags=["billing"])},
 "/api/cancel-subscription": {"post": op("Cancel at the end of the period", ok(obj({"message": S})) | errs("401", "409", "503"), tags=["billing"])},
 "/api/stripe/webhook": {"post": op("Stripe events (signed with the webhook secret; 404 when billing is off)", ok(obj({"received": B, "outcome": S})) | errs("400", "404"),
                          body({"type": "object"}), auth=False, params=[p("Stripe-Signature", "header")], tags=["billing"])},
 "/api/openapi.json": {"get": op("This document", ok({"type": "object"}), auth=False, tags=["meta"])},
}

doc = {
  "openapi": "3.1.0",
  "info": {"title": "Layerfix API", "version": "1",
           "description": "Every /api route of the Layerfix server. Errors are {\"error\":{\"code\",\"message\",\"fields\"}}. "
                          "Bearer tokens are local session tokens (local mode) or Firebase ID tokens (Firebase mode); "
                          "the /api/auth routes exist in local mode only. JSON bodies need Content-Type: application/json."},
  "servers": [{"url": "/"}],
  "paths": paths,
  "components": {"schemas": schemas, "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
}
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "openapi.json")
with open(out, "w") as f:
    json.dump(doc, f, indent=1, sort_keys=False)
    f.write("\n")
