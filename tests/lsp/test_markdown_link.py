"""Location links of the blast-radius report as the language server writes them."""

from lsp_server.features.custom import markdown_link


def test_plain_path() -> None:
    assert markdown_link("src/A.java", "file:///w/src/A.java", 3) == "[src/A.java:3](<file:///w/src/A.java#L3>)"


def test_special_characters_cannot_break_the_link() -> None:
    assert markdown_link("pkg/x]y_z*.py", "file:///w/pkg/x%5Dy_z%2A.py", 7) == (
        r"[pkg/x\]y\_z\*.py:7](<file:///w/pkg/x%5Dy_z%2A.py#L7>)")
    assert markdown_link("a (b)/c.py", "file:///w/a%20(b)/c<d>.py", 1) == (
        "[a (b)/c.py:1](<file:///w/a%20(b)/c%3Cd%3E.py#L1>)")
