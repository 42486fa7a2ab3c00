"""The screen: colours, words, card art, layout and sounds the presenter draws with.

``palette``, ``i18n`` and ``layout`` are pure (no pygame) so headless tools and tests can use them;
``cardart`` and ``sound`` need pygame-ce.
"""
