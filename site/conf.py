# Sphinx + MyST-NB configuration of the course site (`make site`; see tools/build_site.py).
# The sources are staged copies of the notebooks in _cache/site_src (directives stripped, solutions collapsed).
project = 'deepforest_interp'
author = 'Project Team'
copyright = '2026, Project Team'
extensions = ['myst_nb']
myst_enable_extensions = ['dollarmath', 'amsmath']
myst_heading_anchors = 3
nb_execution_mode = (
    'off'  # never re-execute: pages show the stored (or _out/ executed) outputs
)
nb_merge_streams = True
nb_render_markdown_format = (
    'myst'  # markdown outputs (e.g. the derivation index table) may hold tables
)
exclude_patterns = ['_build', '**.ipynb_checkpoints']
suppress_warnings = [
    'myst.header',
    'myst.xref_missing',
    'mystnb.unknown_mime_type',
    'misc.highlighting_failure',
    'toc.not_included',
]
html_theme = 'sphinx_book_theme'
html_title = 'deepforest_interp — a course on interpretable forests'
html_static_path = ['_static']
html_css_files = ['course.css']
html_show_sourcelink = False
html_copy_source = False
html_theme_options = {
    'home_page_in_toc': True,
    'show_navbar_depth': 1,
    'use_download_button': False,
    'use_fullscreen_button': False,
    'navigation_with_keys': False,
    'show_toc_level': 2,
}
html_sidebars = {'**': ['navbar-logo', 'search-field', 'sbt-sidebar-nav.html']}
# MathJax 2.7 from the PyPI wheel jupyter-server-mathjax, copied into _static/mathjax by the build: no CDN.
mathjax_path = 'mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full'
mathjax2_config = {
    'tex2jax': {
        'inlineMath': [['\\(', '\\)']],
        'displayMath': [['\\[', '\\]']],
        'processEscapes': True,
        'processClass': 'math|output_area',
        'ignoreClass': 'document',
    },
    'TeX': {'equationNumbers': {'autoNumber': 'none'}},
    'HTML-CSS': {'availableFonts': [], 'webFont': 'STIX-Web', 'imageFont': None},
    'showMathMenu': False,
    'messageStyle': 'none',
}
