"""Line breaks put back into mail that was flattened onto one line (GitBox's web
archive made every run of blanks one space): around code fences, and inside a
fenced block before each log timestamp, shell prompt or repeated record."""

from __future__ import annotations

from extract.mail.clean import clean_body, reline_flattened


def _flat(text: str) -> str:
    return " ".join(text.split())


NOTE = (
    "Thanks for the review, I reran the whole suite on the new build after the rebase "
    "and the numbers are below; the machine was otherwise idle during the runs. "
) * 2
NOTE = NOTE.strip()  # (a flattened mail's lines run to hundreds of characters)


def test_fences_and_the_sentence_that_leads_into_a_block_get_their_own_lines():
    text = _flat(
        f"{NOTE}\nBefore the fix:\n```\nrows 10\nrows 20\n```\nAfter the fix:\n```\nx\n```\nok"
    )
    lines = reline_flattened(text).split("\n")
    assert lines[:4] == [NOTE, "Before the fix:", "```", "rows 10 rows 20"]
    assert lines[4:] == ["```", "After the fix:", "```", "x", "```", "ok"]
    # JIRA's {code} and {noformat} are fences too
    jira = _flat(f"{NOTE}\nWith patch\n{{code}}\nelapsed 5\n{{code}}\ndone")
    assert reline_flattened(jira).split("\n")[1:3] == ["{code}", "elapsed 5"]


def test_log_lines_and_prompts_inside_a_block_start_lines_again():
    log = "\n".join(
        f"2024-05-0{d} 10:00:0{d} INFO bench: round {d} took {d * 10} ms" for d in range(1, 4)
    )
    text = _flat(f"{NOTE}\n```\n$ ./run-bench --rounds 3\n{log}\n[INFO] Total time: 01:44 min\n```")
    lines = reline_flattened(text).split("\n")
    assert lines[2] == "$ ./run-bench --rounds 3"
    assert lines[3:6] == log.split("\n")
    assert lines[6] == "[INFO] Total time: 01:44 min"


def test_records_that_start_with_the_same_words_start_lines_again():
    recs = "\n".join(f"Time to read page at offset={n}% : {n / 10 + 1}us" for n in (0, 10, 20, 30))
    lines = reline_flattened(_flat(f"{NOTE}\n```\n{recs}\n```")).split("\n")
    assert lines[2:6] == recs.split("\n")
    two = "Sent: 240 Max RT: 292 Failed: 0\nSent: 259 Max RT: 69 Failed: 0"
    assert reline_flattened(_flat(f"{NOTE}\n```\n{two}\n```")).split("\n")[2:4] == two.split("\n")


def test_ordinary_lines_and_tables_are_left_as_they_are():
    short = "Before:\n```\na 1 b 2\n```"
    assert reline_flattened(short) == short
    table = _flat(f"{NOTE}\n```\n| Case | Time 1 | Time 2 | Time 3 |\n| Case | 1 | 2 | 3 |\n```")
    assert "| Case | Time 1 | Time 2 | Time 3 | | Case | 1 | 2 | 3 |" in reline_flattened(table)
    # words that come back after a number but are not capitalised start no line
    lower = _flat(f"{NOTE}\n```\nnested/4096 values list 1 ms nested/4096 values list 2 ms\n```")
    assert reline_flattened(lower).count("\n") == 3


def test_clean_body_relines_a_flattened_mail():
    assert "Before the fix:\n```" in clean_body(_flat(f"{NOTE}\nBefore the fix:\n```\nx 1\n```"))


def test_a_lead_in_that_names_the_block_after_a_linking_verb_is_its_own_line():
    text = _flat(f"{NOTE}\nThe latest result is\nBefore patch:\n```\nx 1\n```")
    assert reline_flattened(text).split("\n")[:3] == [NOTE, "The latest result is", "Before patch:"]


def test_a_comma_separated_table_run_into_one_line_gets_its_lines_back():
    csv = "Case, Min, Max, Mean\nscan-0, 0.031, 0.362, 0.099\nscan-1, 0.040, 0.236, 0.082"
    text = _flat(
        f"{NOTE} The query benchmark before the change:\n{csv}\nAs we can see, it is better."
    )
    lines = reline_flattened(text).split("\n")
    assert lines[1:4] == csv.split("\n")
    assert lines[-1] == "As we can see, it is better."
    # a list of words and numbers in a sentence is no table
    words = _flat(f"{NOTE} We tried sizes 1, 2, 4, 8 and then 16, 32, 64 on each node.")
    assert reline_flattened(words) == words
