"""The one error of the finishing step: a sentence naming the file or page at fault."""


class SiteError(Exception):
    """The built site cannot be finished as it stands."""
