"""Sets of page numbers as runs of consecutive pages, and as the "a-b c" text of the
desktop measurement's CSV files (pagemap.py, validate.py and table.py share it)."""


def runs(pages):
    """(first, count) for each run of consecutive numbers in pages, in order"""
    pages = sorted(pages)
    out, i = [], 0
    while i < len(pages):
        j = i
        while j + 1 < len(pages) and pages[j + 1] == pages[j] + 1:
            j += 1
        out.append((pages[i], j - i + 1))
        i = j + 1
    return out


def fmt(pages):
    """pages as "a-b c ..." text"""
    return " ".join(str(a) if n == 1 else "%d-%d" % (a, a + n - 1) for a, n in runs(pages))
