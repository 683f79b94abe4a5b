"""The server-rendered web pages (Jinja2 templates, a little JavaScript) on top of the API."""
