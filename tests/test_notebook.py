"""The example notebook runs top to bottom (examples/othello_notebook.ipynb), in a few seconds."""

import importlib.util
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "othello_notebook.ipynb"
MISSING = [name for name in ("nbclient", "nbformat", "ipykernel") if importlib.util.find_spec(name) is None]


@pytest.mark.skipif(bool(MISSING), reason="the notebook runner is missing: pip install gamecore[notebooks]")
@pytest.mark.skipif(not NOTEBOOK.exists(), reason="examples/ is not beside the tests")
def test_example_notebook_runs():
    import nbclient  # noqa: PLC0415 - an optional extra's
    import nbformat  # noqa: PLC0415

    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    pictures = [o for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert len(pictures) == 4  # every board came out as a picture
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "14 empty squares" in printed and "the solver's best: b7" in printed
