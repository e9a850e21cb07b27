"""One module per service connector (named after its id), each exposing its ``SPEC``.

:func:`openworker_qt.connectors.registry.catalogue` lists them; ``common`` holds what
several share (sign-ins, GraphQL, the fields worth the model's attention), ``atlassian``
the sign-in of Jira and Confluence.

Every one talks to the service's documented REST (or GraphQL) API through
:class:`~openworker_qt.connectors.base.HttpApi` (httpx2, already the transport of the
model SDKs) rather than a vendor SDK. Of the Python clients, the official ones
(PyGithub, python-gitlab, google-api-python-client, msgraph-sdk, dropbox, box-sdk-gen,
docusign-esign, python-quickbooks, …) and the most used community ones are synchronous
on ``requests`` or bring large generated trees for the two or three calls a connector
makes; those of PostHog, Mixpanel, Amplitude and Sentry send events rather than read an
account; Stripe's has its own retry rules that would repeat a refund after a server
error; ClickUp, Attio, Zoom, WhatsApp Cloud and Figma have none. And none waits out a
``Retry-After`` or refuses to repeat a write after a server error the way ``HttpApi``
does for every connector alike.

Each connector: a validation call naming who the credentials belong to; read tools
(READ); action tools (EXTERNAL, asked for) naming their exact target (the repository,
the task, the file, the record, the channel, …), so that an "always" answer binds to
that target only.
"""
