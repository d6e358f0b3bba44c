package active

// AcquisitionWith is the campaign's acquisition (Config.Acquisition with
// Config.Explore) with a round's overrides: another function (name, in
// ParseAcquisition's syntax; "" keeps the campaign's, and a new one keeps
// the campaign's explore weight) and another explore weight (explore < 0
// keeps the campaign's). For ProposeWith.
func (c *State) AcquisitionWith(name string, explore float64) (Acquisition, error) {
	acq := c.acq
	if name != "" {
		var err error
		if acq, err = ParseAcquisition(name); err != nil {
			return Acquisition{}, err
		}
		acq.ExploreWeight = c.Config.Explore
	}
	if explore >= 0 {
		acq.ExploreWeight = explore
	}
	return acq, nil
}
