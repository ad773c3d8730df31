from configparser import ConfigParser
import setuptools, shlex
config = ConfigParser(delimiters=['=']); config.read('settings.ini', encoding='utf-8'); cfg = config['DEFAULT']
cfg_keys = 'version description keywords author author_email'.split()
for o in cfg_keys + 'lib_name user branch license status min_python audience language'.split():
    assert o in cfg, f"missing expected setting: {o}"
statuses = ['1 - Planning','2 - Pre-Alpha','3 - Alpha','4 - Beta','5 - Production/Stable','6 - Mature','7 - Inactive']
py_versions = '3.9 3.10 3.11 3.12 3.13'.split()
lic = {'apache2': 'Apache-2.0', 'mit': 'MIT'}.get(cfg['license'].lower(), cfg['license'])
setuptools.setup(
    name=cfg['lib_name'], license=lic, url=cfg['git_url'],
    classifiers=['Development Status :: ' + statuses[int(cfg['status'])],
                 'Intended Audience :: ' + cfg['audience'].title(), 'Natural Language :: ' + cfg['language'].title()]
                + ['Programming Language :: Python :: ' + o for o in py_versions[py_versions.index(cfg['min_python']):]],
    # data folders are listed as (namespace) packages so setuptools ships their files without a warning
    packages=setuptools.find_namespace_packages(include=[cfg['lib_name'], cfg['lib_name'] + '.data', cfg['lib_name'] + '.data.*']),
    include_package_data=True, zip_safe=False,
    package_data={cfg['lib_name'] + '.data': ['*.csv', '*.md'], cfg['lib_name'] + '.data.keel': ['*.gz'],
                  cfg['lib_name'] + '.data.explorers': ['*.css', '*.js'],     # the explorers' front-end code
                  **{cfg['lib_name'] + '.data.uci.' + d: ['*'] for d in ('adult', 'bank_marketing', 'statlog_satellite', 'crowdsourced_mapping', 'phishing')}},
    install_requires=shlex.split(cfg.get('requirements', '')),
    extras_require={'dev': (cfg.get('dev_requirements') or '').split(),
                    'oracles': 'shap treeinterpreter lime'.split(),
                    'distributed': ['dask[distributed]'], 'dask': ['dask[distributed]'],
                    'boosting': (cfg.get('boosting_requirements') or '').split()},
    python_requires='>=' + cfg['min_python'],
    long_description=open('README.md', encoding='utf-8').read(), long_description_content_type='text/markdown',
    entry_points={'console_scripts': cfg.get('console_scripts', '').split(),
                  'nbdev': [f'{cfg.get("lib_path")}={cfg.get("lib_path")}._modidx:d']},
    **{o: cfg[o] for o in cfg_keys})
