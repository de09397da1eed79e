"""The HTTP service: ``phiscrub serve`` (FastAPI on uvicorn, the ``serve`` extra).

``service`` holds the work (no HTTP), ``models`` the request and response bodies,
``app`` the FastAPI application, ``guard`` the body limit and the error guard, ``logs``
logging that never holds note text, ``cli`` the command. Importing this package imports
neither FastAPI nor uvicorn. See docs/serve.md.
"""
