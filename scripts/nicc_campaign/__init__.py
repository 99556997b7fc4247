"""nicc_campaign — sweeps of nicc-sim runs (scripts/nicc-campaign; docs/campaigns.md).

Modules: plan (campaign file, axes, points, key check), points (one point's
directory: run it, read its state), local (parallel local runner), slurm
(sbatch job array), collect (merged CSV / SQLite table), plots (PNG).
"""


class CampaignError(Exception):
    """Bad input (campaign file, key, value, path): exit status 2."""
