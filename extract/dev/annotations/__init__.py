"""The project's own annotations of the labelled mail: every measured number of each
positive message, as its character span in the message body, with its label, metric
and unit (`<set>.jsonl`, one message a line; no message text). See `annotate.py`.
"""
