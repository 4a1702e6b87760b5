"""Token counts of agent answers (analysis.tokens): exact WordPiece counts with the bundled tokenizer,
and the character estimate, said in the answer's budget, when the tokenizer cannot load."""

from __future__ import annotations

import pytest

from analysis.agent_queries import AgentQueries
from analysis.tokens import BUNDLED_METHOD, CHARS_PER_TOKEN, TOKENIZER_FILE, TokenCounter, count_tokens
from stores.embedded import EmbeddedStore


@pytest.mark.parametrize(("text", "pieces"), [
    ("", []),
    ("def make_response(self):", ["def", "make", "_", "response", "(", "self", ")", ":"]),
    ("Flask.make_response", ["fl", "##ask", ".", "make", "_", "response"]),
    ("OwnerRepository.findById(int)", ["owner", "##re", "##po", "##sitor", "##y", ".", "find", "##by", "##id", "(",
                                       "int", ")"]),
    ("Who calls slugify?", ["who", "calls", "slug", "##ify", "?"]),
])
def test_counts_are_the_bundled_wordpiece_pieces(text, pieces):
    counter = TokenCounter()
    assert counter.exact and counter.method == BUNDLED_METHOD and counter.path == TOKENIZER_FILE
    assert counter.count(text) == len(pieces) == count_tokens(text)


def test_no_truncation_at_the_models_256_tokens():
    text = " ".join(["response"] * 1000)  # one piece each
    assert count_tokens(text) == 1000


def test_within_decides_on_characters_only_when_that_is_safe():
    counter = TokenCounter()
    assert counter.within("abc", 3)  # 3 characters: at most 3 pieces, not tokenized
    assert counter.within("response response", 2) and not counter.within("response response", 1)


def test_a_tokenizer_that_cannot_load_falls_back_to_the_estimate_and_says_why(tmp_path):
    broken = tmp_path / "tokenizer.json"
    broken.write_text("{not json")
    for path in (broken, tmp_path / "missing.json"):
        counter = TokenCounter(path)
        assert not counter.exact
        assert counter.method.startswith(f"estimate: {CHARS_PER_TOKEN} characters a token (the tokenizer {path} "
                                          "cannot load: ")
        assert counter.count("") == 0 and counter.count("abcd") == 1 and counter.count("abcde") == 2
    with pytest.raises(TypeError, match="text must be a string"):
        TokenCounter().count(None)  # type: ignore[arg-type]


def test_answers_say_how_their_tokens_were_counted(tmp_path, monkeypatch):
    import analysis.agent_queries as aq

    store = EmbeddedStore(tmp_path / "empty.db")
    try:
        q = AgentQueries(store, store)
        budget = q.repositories().as_dict()["budget"]
        assert budget["counted_by"] == BUNDLED_METHOD and budget["tokens"] == count_tokens(q.repositories().text)
        fallback = TokenCounter(tmp_path / "missing.json")
        monkeypatch.setattr(aq, "token_counter", lambda: fallback)
        answer = q.repositories()
        budget = answer.as_dict()["budget"]
        assert budget["counted_by"].startswith("estimate: 4 characters a token")
        assert budget["tokens"] == -(-len(answer.text) // 4)
    finally:
        store.close()
