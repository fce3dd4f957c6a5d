"""BTN 2 (``%btn 2``): the notation of the trick family; seats, pack and trick size come from the ruleset."""
