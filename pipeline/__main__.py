from pipeline.cli.app import main

# Guarded: the parse sandbox's fork server imports this module as __mp_main__.
if __name__ == "__main__":
    main()
