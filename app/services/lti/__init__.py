"""numjudge as an LTI 1.3 tool, on pylti1p3 (the pylti1p3next distribution).

    keys       the tool's RSA key pairs: made on first use, rotated, published as a JWKS
    platforms  the LMSs registered with ``numjudge lti add-platform``, and the URLs to give them
    adapter    pylti1p3's request, cookie, session, launch cache and tool configuration, backed
               by plain request data and the database
    launch     the OIDC login and the resource-link launch: who the LMS user is in numjudge
               and where they land
    accounts   the account of an LMS user, for a launch and a roster synchronisation alike:
               linked before, an unused account by e-mail address, or its owner signs in
    linking    the launch's page where an LMS user signs in to link an account, or takes a
               new one
    connector  calling a platform's services with an access token (pylti1p3's connector)
    passback   scores sent to the LMS's gradebook (Assignment and Grade Services)
    scores     the score a link's learner has as the schedule counts it, and whether the work
               is complete (what passback posts)
    contexts   the LMS contexts launches come from, their members' enrolments and sections
    roster_sync  the roster synchronised with an LMS context's members (Names and Role
               Provisioning Services)

The pages (app/web/pages_lti.py) turn a FastAPI request into the adapter's ``ToolRequest`` and
its ``CookieJar`` into the response's cookies; nothing here knows the web framework.
"""
